package dev.stoker.vision.decode;

import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * How the decode fuzz runners judge one leg of a case: it decoded, or it was refused with an
 * {@link ImageDecodeException} naming its source; anything else is a finding (an outcome starting
 * {@code BAD}), and so is a leg that took more heap or off-heap memory than its budget.
 */
final class LegJudge {
    /** One leg's work on a damaged file: "ok", or a finding starting {@code BAD}. */
    interface Attempt {
        String run() throws Exception;
    }

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final long maxHeap;
    private final long maxNative;

    /**
     * @param maxHeap   heap a leg may allocate on its thread
     * @param maxNative off-heap bytes a decoder's session may hold after a leg
     */
    LegJudge(long maxHeap, long maxNative) {
        this.maxHeap = maxHeap;
        this.maxNative = maxNative;
    }

    /** Runs {@code attempt} with {@code decoder} on the file called {@code source}, and judges it. */
    String judge(ImageDecoder decoder, String source, Attempt attempt) {
        long before = threads.getCurrentThreadAllocatedBytes();
        String outcome;
        try {
            outcome = attempt.run();
        } catch (ImageDecodeException e) {
            outcome = e.getMessage() != null && e.getMessage().startsWith(source + ": ") && source.equals(e.source())
                    ? "refused" : "BAD the error does not name the source: " + e.getMessage();
        } catch (Throwable t) { // anything else is the finding: report it with its seed, do not rethrow
            outcome = "BAD " + trace(t);
        }
        long heap = threads.getCurrentThreadAllocatedBytes() - before;
        if (!outcome.startsWith("BAD") && heap > maxHeap) {
            outcome = "BAD allocated " + heap + " bytes of heap, more than " + maxHeap;
        }
        long nativeBytes;
        try (DecodeSession s = decoder.session()) { // the one session every leg of the decoder used
            nativeBytes = s.bufferBytes();
        }
        if (!outcome.startsWith("BAD") && nativeBytes > maxNative) {
            outcome = "BAD off-heap memory grew to " + nativeBytes + " bytes, more than " + maxNative;
        }
        return outcome;
    }

    /**
     * Adds leg {@code leg}'s outcome to {@code outcomes}, and a finding line (seed, fixture, leg,
     * what, the damage that replays it) to {@code bad} when it is one.
     */
    static void record(String outcome, long seed, String fixture, String leg, String damage,
                       List<String> outcomes, List<String> bad) {
        if (outcome.startsWith("BAD")) {
            bad.add("BAD " + seed + " " + fixture + " " + leg + ": " + outcome.substring(4) + " [" + damage + "]");
        }
        outcomes.add(leg + "=" + (outcome.startsWith("BAD") ? "BAD" : outcome));
    }

    /** A throwable with the top of its stack and its cause, on one line. */
    static String trace(Throwable t) {
        StringBuilder s = new StringBuilder(t.toString());
        StackTraceElement[] st = t.getStackTrace();
        for (int i = 0; i < Math.min(8, st.length); i++) {
            s.append(" | at ").append(st[i]);
        }
        if (t.getCause() != null) {
            s.append(" | caused by ").append(t.getCause());
        }
        return s.toString();
    }
}
