package dev.stoker.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The results as an aligned text table for a person: one row per configuration, the name left,
 * the figures right-aligned so that their digits line up. Like the PyTorch tuning tutorial's
 * progressive table, each row says its speed-up over the first row (the baseline) and over the
 * row before it; "in flight" is the loader's stated bound on batch memory ahead of the consumer.
 *
 * <pre>
 * configuration  batches/s  samples/s     min     max  x base  x prev    MB/s  first batch ms  peak RSS MiB  in flight MiB  pool peak MiB
 * nw=0                5.36      171.4   170.2   172.0    1.00    1.00   103.2           185.3          310             18             39
 * </pre>
 */
final class ResultTable {
    static final List<String> HEADER = List.of("configuration", "batches/s", "samples/s", "min", "max", "x base", "x prev",
            "MB/s", "first batch ms", "peak RSS MiB", "in flight MiB", "pool peak MiB");

    private ResultTable() {}

    /** The table, one line per result after the header, each line ending in a newline. */
    static String format(List<BenchResult> results) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADER);
        double base = results.isEmpty() ? Double.NaN : results.getFirst().samplesPerSecond();
        double previous = base;
        for (BenchResult r : results) {
            double sps = r.samplesPerSecond();
            rows.add(List.of(
                    r.configuration().name(),
                    number(r.batchesPerSecond(), 2),
                    number(r.samplesPerSecond(), 1),
                    number(r.samplesPerSecondMin(), 1),
                    number(r.samplesPerSecondMax(), 1),
                    number(sps / base, 2),
                    number(sps / previous, 2),
                    number(r.megabytesPerSecond(), 1),
                    number(r.firstBatchMillis(), 1),
                    megabytes(r.peakRssBytes()),
                    megabytes(r.inFlightBytes()),
                    megabytes(r.poolPeakBytes())));
            previous = sps;
        }
        int[] width = new int[HEADER.size()];
        for (List<String> row : rows) {
            for (int c = 0; c < row.size(); c++) {
                width[c] = Math.max(width[c], row.get(c).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> row : rows) {
            for (int c = 0; c < row.size(); c++) {
                String cell = row.get(c);
                String pad = " ".repeat(width[c] - cell.length());
                if (c == 0) {
                    out.append(cell).append(pad);
                } else {
                    out.append("  ").append(pad).append(cell);
                }
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String number(double v, int decimals) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%,." + decimals + "f", v);
    }

    /** Mebibytes, as the PyTorch side's memory figures ({@code kB / 1024}); "-" when unknown. */
    private static String megabytes(long bytes) {
        return bytes < 0 ? "-" : String.format(Locale.ROOT, "%,.0f", bytes / 1048576.0);
    }
}
