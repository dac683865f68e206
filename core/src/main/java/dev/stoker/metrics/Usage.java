package dev.stoker.metrics;

/**
 * What a stretch of time cost: its length by the wall clock, the CPU time this process used in
 * it, and the whole machine's processor ticks. Taken as readings ({@link #now()}) and subtracted;
 * spans add up. The CPU time is -1 and the ticks {@link MachineCpu#UNKNOWN} where the system does
 * not say, and stay so through sums and differences.
 *
 * <pre>{@code
 * Usage start = Usage.now();
 * work();
 * Usage spent = Usage.now().minus(start);   // spent.cpuNanos() / spent.wallNanos(): cores kept busy
 * }</pre>
 *
 * @param wallNanos nanoseconds by {@link System#nanoTime()} (a reading's own value, or a span's length)
 * @param cpuNanos  this process's CPU nanoseconds, or -1 when not known
 * @param machine   the machine's processor ticks (all, busy)
 */
public record Usage(long wallNanos, long cpuNanos, MachineCpu.Ticks machine) {
    /** A span of no length: where sums start. */
    public static final Usage ZERO = new Usage(0, 0, new MachineCpu.Ticks(0, 0));

    /** A reading now: the wall clock first, since the counters after it take a while to read. */
    public static Usage now() {
        long wall = System.nanoTime();
        return new Usage(wall, ProcessCpu.nanos(), MachineCpu.ticks());
    }

    /** The span from {@code earlier} to this. */
    public Usage minus(Usage earlier) {
        return new Usage(wallNanos - earlier.wallNanos,
                cpuNanos < 0 || earlier.cpuNanos < 0 ? -1 : cpuNanos - earlier.cpuNanos, machine.minus(earlier.machine));
    }

    /** Two spans together. */
    public Usage plus(Usage other) {
        return new Usage(wallNanos + other.wallNanos,
                cpuNanos < 0 || other.cpuNanos < 0 ? -1 : cpuNanos + other.cpuNanos, machine.plus(other.machine));
    }
}
