package dev.stoker.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress over a counted number of things (documents tokenized): a bar on a terminal, elsewhere
 * (a log, CI, a pipe) a line at every tenth of the way with the rate and the time left.
 */
sealed interface CountProgress extends AutoCloseable {

    static CountProgress create(PrintWriter err, String task, long total, String unit, boolean quiet) {
        if (quiet) {
            return new Silent();
        }
        var console = System.console();
        if (console != null && console.isTerminal()) {
            return new Bar(task, total, unit);
        }
        return new Lines(err, task, total, unit);
    }

    /** {@code n} more are done. */
    void step(long n);

    @Override
    void close();

    /** The terminal's bar. */
    final class Bar implements CountProgress {
        private final ProgressBar bar;

        Bar(String task, long total, String unit) {
            this.bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(Math.max(total, 1))
                    .setUnit(" " + unit, 1).showSpeed().setStyle(ProgressBarStyle.ASCII)
                    .setConsumer(new ConsoleProgressBarConsumer(System.err)).setUpdateIntervalMillis(250).build();
        }

        @Override
        public void step(long n) {
            bar.stepBy(n);
        }

        @Override
        public void close() {
            bar.close();
        }
    }

    /** A line per tenth. */
    final class Lines implements CountProgress {
        private final PrintWriter err;
        private final String task;
        private final long total;
        private final String unit;
        private final long start = System.nanoTime();
        private long done;
        private int tenthsShown;

        Lines(PrintWriter err, String task, long total, String unit) {
            this.err = err;
            this.task = task;
            this.total = Math.max(total, 1);
            this.unit = unit;
        }

        @Override
        public void step(long n) {
            done += n;
            int tenths = (int) (done * 10 / total);
            if (tenths > tenthsShown && tenths < 10) {
                tenthsShown = tenths;
                double seconds = (System.nanoTime() - start) / 1e9;
                double rate = done / Math.max(seconds, 1e-9);
                long left = (long) ((total - done) / Math.max(rate, 1e-9));
                err.printf(Locale.ROOT, "%s: %d%%  %d/%d %s  %.0f %s/s  about %s left%n", task, tenths * 10, done, total,
                        unit, rate, unit, Duration.ofSeconds(left).toString().substring(2).toLowerCase(Locale.ROOT));
                err.flush();
            }
        }

        @Override
        public void close() {
        }
    }

    /** Nothing (--quiet). */
    final class Silent implements CountProgress {
        @Override
        public void step(long n) {
        }

        @Override
        public void close() {
        }
    }
}
