package dev.stoker.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * What {@code stoker pack} shows on stderr while it writes: on a terminal a progress bar over the
 * input bytes (files, bytes, rate, time left); elsewhere (a log, CI, a pipe) a plain line at every
 * tenth of the way, since a bar would be a stream of carriage returns there.
 */
sealed interface PackProgress extends AutoCloseable {

    /** {@code unit} is what one input is: {@code file}, or {@code line} for JSONL. */
    static PackProgress create(PrintWriter err, long totalFiles, long totalBytes, boolean quiet, String unit) {
        if (quiet) {
            return new Silent();
        }
        var console = System.console();
        if (console != null && console.isTerminal()) {
            return new Bar(totalFiles, totalBytes, unit);
        }
        return new Lines(err, totalFiles, totalBytes, unit);
    }

    /** A sample with {@code files} input files and {@code bytes} bytes was written. */
    void sample(int files, long bytes);

    @Override
    void close();

    /** The terminal's bar, in MiB, with the file count beside it. */
    final class Bar implements PackProgress {
        private final ProgressBar bar;
        private final long totalFiles;
        private final String unit;
        private long files;
        private long bytes;

        Bar(long totalFiles, long totalBytes, String unit) {
            this.totalFiles = totalFiles;
            this.unit = unit;
            this.bar = new ProgressBarBuilder()
                    .setTaskName("pack")
                    .setInitialMax(Math.max(totalBytes, 1))
                    .setUnit(" MiB", 1 << 20)
                    .showSpeed()
                    .setStyle(ProgressBarStyle.ASCII)
                    .setConsumer(new ConsoleProgressBarConsumer(System.err))
                    .setUpdateIntervalMillis(250)
                    .build();
        }

        @Override
        public void sample(int n, long b) {
            files += n;
            bytes += b;
            bar.stepTo(bytes);
            bar.setExtraMessage(" " + files + "/" + totalFiles + " " + unit + "s");
        }

        @Override
        public void close() {
            bar.close();
        }
    }

    /** One line per tenth of the input bytes, with the rate and the time left. */
    final class Lines implements PackProgress {
        private final PrintWriter err;
        private final long totalFiles;
        private final long totalBytes;
        private final String unit;
        private final long start = System.nanoTime();
        private long files;
        private long bytes;
        private int tenthsShown;

        Lines(PrintWriter err, long totalFiles, long totalBytes, String unit) {
            this.err = err;
            this.unit = unit;
            this.totalFiles = totalFiles;
            this.totalBytes = Math.max(totalBytes, 1);
        }

        @Override
        public void sample(int n, long b) {
            files += n;
            bytes += b;
            int tenths = (int) (bytes * 10 / totalBytes);
            if (tenths > tenthsShown && tenths < 10) {
                tenthsShown = tenths;
                double seconds = (System.nanoTime() - start) / 1e9;
                double rate = bytes / Math.max(seconds, 1e-9);
                long left = (long) ((totalBytes - bytes) / Math.max(rate, 1));
                err.printf(Locale.ROOT, "pack: %d%%  %d/%d %ss  %s  %s/s  about %s left%n", tenths * 10, files,
                        totalFiles, unit, ByteSize.format(bytes), ByteSize.format((long) rate),
                        Duration.ofSeconds(left).toString().substring(2).toLowerCase(Locale.ROOT));
                err.flush();
            }
        }

        @Override
        public void close() {
        }
    }

    /** Nothing (--quiet). */
    final class Silent implements PackProgress {
        @Override
        public void sample(int files, long bytes) {
        }

        @Override
        public void close() {
        }
    }
}
