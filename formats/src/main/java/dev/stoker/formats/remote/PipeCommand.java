package dev.stoker.formats.remote;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;

/**
 * Files read from the output of a shell command: WebDataset's {@code pipe:} locations, the way to
 * any storage that has a command line tool ({@code pipe:aws s3 cp s3://bucket/train-000001.tar -},
 * {@code pipe:gsutil cat gs://...}, {@code pipe:curl -s ...}). The command runs under
 * {@code /bin/sh -c} with no input, and its output is read as a stream, never held whole.
 *
 * <p>A command that fails says so: its exit status and the end of what it wrote to standard error
 * are in the reader's error, also when it failed before writing anything (which would otherwise
 * read as an empty file). A command that stops writing for the stall timeout fails the file;
 * closing the stream early ends the command and what it started.
 *
 * <p>A {@code pipe:} location runs whatever it names: build file lists from sources you trust.
 * Names that come from data (the shards an index lists) never become part of a command's text:
 * they are placed into the user's template through the environment ({@link RemoteFile#of}).
 */
final class PipeCommand {
    private PipeCommand() {
    }

    /**
     * Starts {@code file}'s command with its environment: its output, behind the stall guard. A
     * name from data reaches the command only through that environment ({@link RemoteFile#of}).
     */
    static InputStream output(RemoteFile.Command file, RemoteSettings settings) {
        Process process;
        try {
            ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", file.command())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().putAll(file.environment());
            process = builder.start();
        } catch (IOException | IllegalArgumentException e) {
            // IllegalArgumentException: an environment value the OS cannot hold (a NUL)
            throw new RemoteFileException(file.location(), "could not start the command: " + e.getMessage(), e);
        }
        CommandOutput output = new CommandOutput(process, file.command(), settings.stallTimeout());
        return new StallGuardInputStream(output, file.location(), settings.readAhead(), settings.stallTimeout(),
                "the command");
    }
}
