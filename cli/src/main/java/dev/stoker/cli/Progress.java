package dev.stoker.cli;

import java.io.PrintWriter;
import java.util.Locale;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * What a person sees on stderr while the benchmark runs. On a terminal, a progress bar over all
 * batches of all configurations; elsewhere (a log, CI, a pipe) a bar would be a stream of carriage
 * returns, so it writes one line per finished configuration instead.
 */
sealed interface Progress extends AutoCloseable {

    /**
     * @param err           where the lines go when stderr is not a terminal
     * @param totalBatches  batches of every repetition of every configuration, warm-ups included
     * @param configurations how many configurations will run
     */
    static Progress create(PrintWriter err, long totalBatches, int configurations) {
        var console = System.console();
        // Since JDK 22 System.console() exists even when redirected; isTerminal() tells.
        if (console != null && console.isTerminal()) {
            return new Bar(totalBatches);
        }
        return new Lines(err, configurations);
    }

    /** A repetition of {@code c} starts; {@code what} says which ({@code warm-up}, {@code rep 2/3}). */
    void repetition(Configuration c, String what);

    /** A batch was consumed. Called inside the timed region: cheap. */
    void batch();

    /** A configuration finished. */
    void finished(BenchResult r);

    @Override
    void close();

    /** The terminal's progress bar. */
    final class Bar implements Progress {
        private final ProgressBar bar;

        Bar(long totalBatches) {
            this.bar = new ProgressBarBuilder()
                    .setTaskName("bench")
                    .setInitialMax(totalBatches)
                    .setUnit(" batches", 1)
                    .setStyle(ProgressBarStyle.ASCII)
                    .setConsumer(new ConsoleProgressBarConsumer(System.err))
                    .setUpdateIntervalMillis(250)
                    .clearDisplayOnFinish()
                    .build();
        }

        @Override
        public void repetition(Configuration c, String what) {
            bar.setExtraMessage(c.name() + ", " + what);
        }

        @Override
        public void batch() {
            bar.step();
        }

        @Override
        public void finished(BenchResult r) {}

        @Override
        public void close() {
            bar.close();
        }
    }

    /** One line per configuration, for logs. */
    final class Lines implements Progress {
        private final PrintWriter err;
        private final int configurations;
        private int done;

        Lines(PrintWriter err, int configurations) {
            this.err = err;
            this.configurations = configurations;
        }

        @Override
        public void repetition(Configuration c, String what) {}

        @Override
        public void batch() {}

        @Override
        public void finished(BenchResult r) {
            done++;
            int reps = r.repetitions().size();
            err.printf(Locale.ROOT, "[%d/%d] %s %s: %,.1f samples/s (median of %d %s, %.2f s)%n", done,
                    configurations, r.workload(), r.configuration().name(), r.samplesPerSecond(), reps,
                    reps == 1 ? "repetition" : "repetitions", r.medianNanos() / 1e9);
            err.flush();
        }

        @Override
        public void close() {}
    }
}
