package dev.stoker.sampler;

import java.util.Arrays;
import java.util.PrimitiveIterator;

/** Test helper: collects what a sampler's iterator yields. */
final class Drain {
    private Drain() {
    }

    static long[] all(PrimitiveIterator.OfLong it) {
        long[] out = new long[16];
        int n = 0;
        while (it.hasNext()) {
            if (n == out.length) {
                out = Arrays.copyOf(out, n * 2);
            }
            out[n++] = it.nextLong();
        }
        return Arrays.copyOf(out, n);
    }

    static long[] epoch(Sampler s, long epoch) {
        return all(s.iterator(epoch));
    }

    static long[] take(PrimitiveIterator.OfLong it, int count) {
        long[] out = new long[count];
        for (int i = 0; i < count; i++) {
            out[i] = it.nextLong();
        }
        return out;
    }

    static java.util.List<Long> boxed(long[] a) {
        return Arrays.stream(a).boxed().toList();
    }

    static long[] range(long from, long to) {
        long[] out = new long[Math.toIntExact(to - from)];
        for (int i = 0; i < out.length; i++) {
            out[i] = from + i;
        }
        return out;
    }

    static long[] sorted(long[] a) {
        long[] s = a.clone();
        Arrays.sort(s);
        return s;
    }

    /** Bytes allocated by this thread so far, or -1 where the JVM cannot tell. */
    static long allocatedBytes() {
        if (java.lang.management.ManagementFactory.getThreadMXBean()
                instanceof com.sun.management.ThreadMXBean bean && bean.isThreadAllocatedMemorySupported()) {
            return bean.getCurrentThreadAllocatedBytes();
        }
        return -1;
    }
}
