package dev.stoker.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code stoker} command: the entry point of the runnable jar, and the parent of the
 * subcommands: {@code bench}, {@code profile}, {@code tune}, {@code cuda}, {@code order}, {@code pack},
 * {@code inspect}, {@code index}.
 *
 * <pre>{@code
 * int exit = new CommandLine(new Main()).execute("bench", "--quick");
 * }</pre>
 */
@Command(
        name = "stoker",
        subcommands = {BenchCommand.class, ProfileCommand.class, TuneCommand.class, CudaCommand.class, OrderCommand.class, PackCommand.class, InspectCommand.class,
            IndexCommand.class, CommandLine.HelpCommand.class},
        synopsisSubcommandLabel = "COMMAND",
        versionProvider = VersionText.class,
        description = {
            "Stoker is a data loader for machine-learning training on the JVM: it",
            "turns data into batches of tensors in off-heap memory, on worker threads,",
            "fast enough that the accelerator never waits. This command measures it",
            "and drives the tools around it.",
            ""
        },
        commandListHeading = "%nCommands:%n",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:done",
            "1:failed; the error on stderr says why (bad data; no GPU for stoker cuda)",
            "2:the command line is wrong: an unknown command or option, or a bad value"},
        footerHeading = "%nExamples:%n",
        footer = {
            "  stoker bench                   run the W1 benchmark (built-in synthetic data)",
            "  stoker bench --quick           a fast smoke run: 1 repetition of 1 epoch",
            "  stoker bench --json > w1.jsonl one JSON line per configuration, for scripts",
            "  stoker profile --step-ms 50    data-bound or compute-bound, and why",
            "  stoker tune --step-ms 50       how many workers keep a 50 ms step fed",
            "  stoker cuda                    is there a usable GPU, and which",
            "  stoker pack DIR -o out/shard-%%06d.tar   pack a folder into tar shards",
            "  stoker inspect FILE...         what a shard, index, .npy or token file holds",
            "  stoker help bench              every option of bench",
            "  stoker --version               version, JVM, and the native libraries found",
            "",
            "Run from a checkout, ./stoker finds a JDK 25+ and builds itself on first use;",
            "./stoker test runs the tests."
        })
public final class Main implements Runnable {

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Option(names = {"-V", "--version"}, versionHelp = true,
            description = "Show the version, the commit, the JVM, and what Stoker found it can use here (JVM flags, native libraries), then exit.")
    boolean version;

    /** With no command there is nothing to do but say what there is. */
    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new Main()).execute(args));
    }
}
