package dev.stoker.formats.tar;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;

/**
 * Shards read from the output of a shell command: WebDataset's {@code pipe:} locations, the way to
 * any storage that has a command line tool ({@code pipe:aws s3 cp s3://bucket/train-000001.tar -},
 * {@code pipe:gsutil cat gs://...}, {@code pipe:curl -s ...}). The command runs under
 * {@code /bin/sh -c} with no input, and its output is read as a tar stream, never held whole.
 *
 * <p>A command that fails says so: its exit status and the end of what it wrote to standard error
 * are in the shard's error, also when it failed before writing anything (which would otherwise
 * read as an empty shard). A command that stops writing for the stall timeout fails the shard;
 * closing the shard early ends the command and what it started.
 *
 * <p>A {@code pipe:} location runs whatever it names: build shard lists from sources you trust.
 * Names that come from data (the shards an index lists) never become part of a command's text:
 * they are placed into the user's template through the environment ({@link RemoteFile#of}).
 *
 * <pre>{@code
 * TarShardDataset train = TarShardDataset.builder("pipe:aws s3 cp s3://bucket/train-{000000..000099}.tar -")
 *         .shuffleShards(true).build();
 * }</pre>
 */
public final class PipeShards {
    /** What a location starts with to be a command. */
    public static final String PREFIX = "pipe:";

    private PipeShards() {
    }

    /** Whether {@code location} is a command ({@code pipe:...}) rather than a file or a URL. */
    public static boolean isPipe(String location) {
        return location.startsWith(PREFIX);
    }

    /**
     * Starts the command of {@code location} and reads its output as a tar stream.
     *
     * @param readAhead    bytes buffered ahead of the tar parser
     * @param stallTimeout how long a read waits for the command's next bytes
     * @throws TarException naming the location when the command cannot be started
     */
    public static TarReader open(String location, int readAhead, Duration stallTimeout) {
        return TarReader.open(location, output(location, readAhead, stallTimeout), -1);
    }

    /** Starts the command of {@code location}: its output, behind the stall guard. */
    static InputStream output(String location, int readAhead, Duration stallTimeout) {
        if (!isPipe(location)) {
            throw new TarException(location, 0, "is not a pipe: command");
        }
        return output((RemoteFile.Command) RemoteFile.at(location), readAhead, stallTimeout);
    }

    /**
     * Starts {@code file}'s command with its environment: its output, behind the stall guard. A
     * name from data reaches the command only through that environment ({@link RemoteFile#of}).
     */
    static InputStream output(RemoteFile.Command file, int readAhead, Duration stallTimeout) {
        Process process;
        try {
            ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", file.command())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().putAll(file.environment());
            process = builder.start();
        } catch (IOException | IllegalArgumentException e) {
            // IllegalArgumentException: an environment value the OS cannot hold (a NUL)
            throw new TarException(file.location(), 0, "could not start the command: " + e.getMessage(), e);
        }
        CommandOutput output = new CommandOutput(process, file.command(), stallTimeout);
        return new StallGuardInputStream(output, file.location(), readAhead, stallTimeout, "the command");
    }
}
