package dev.stoker.cli;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Lengths (of sequences, documents, lines) counted in power-of-two buckets and printed as a short
 * bar chart, with the count, the mean and the longest: what {@code stoker inspect} shows of a
 * language-model dataset, to see at a glance whether rows of 2048 would be mostly padding.
 */
final class LengthHistogram {
    private final long[] buckets = new long[64];
    private long count;
    private long total;
    private long min = Long.MAX_VALUE;
    private long max = -1;

    void add(long length) {
        int b = length <= 0 ? 0 : 64 - Long.numberOfLeadingZeros(length);   // [2^(b-1), 2^b)
        buckets[b]++;
        count++;
        total += length;
        min = Math.min(min, length);
        max = Math.max(max, length);
    }

    long count() {
        return count;
    }

    /** The histogram under a heading line, {@code unit} naming what is counted ("tokens", "bytes"). */
    void print(PrintWriter out, String what, String unit) {
        if (count == 0) {
            out.println("  " + what + ": none");
            return;
        }
        out.printf(Locale.ROOT, "  %s in %s: %,d, mean %.1f, min %,d, max %,d%n", what, unit, count,
                (double) total / count, min, max);
        int first = 0;
        while (buckets[first] == 0) {
            first++;
        }
        int last = 63;
        while (buckets[last] == 0) {
            last--;
        }
        long most = 0;
        for (long b : buckets) {
            most = Math.max(most, b);
        }
        for (int b = first; b <= last; b++) {
            long lo = b == 0 ? 0 : 1L << (b - 1);
            long hi = b == 0 ? 0 : (1L << b) - 1;
            int bar = (int) Math.round(40.0 * buckets[b] / most);
            out.printf(Locale.ROOT, "    %12s  %,10d  %5.1f%%  %s%n", lo == hi ? Long.toString(lo) : lo + "-" + hi,
                    buckets[b], 100.0 * buckets[b] / count, "#".repeat(bar));
        }
    }
}
