package dev.stoker.metrics;

/**
 * The time a stage took, summed over every thread, and how many times it was timed.
 *
 * @param nanos summed time
 * @param count number of timed spans
 */
public record StageTotal(long nanos, long count) {
    /** Nothing timed. */
    public static final StageTotal NONE = new StageTotal(0, 0);

    /** Mean time per span in milliseconds, 0 when none. */
    public double meanMillis() {
        return count == 0 ? 0 : nanos / 1e6 / count;
    }

    /** Seconds, summed. */
    public double seconds() {
        return nanos / 1e9;
    }
}
