package dev.stoker.loader.engine;

/**
 * What a worker is doing: making batch {@code batch} (its position in the epoch as the worker
 * knows it) from the samples at {@code indices}, since {@code sinceNanos} ({@link System#nanoTime}).
 * Kept so that a timeout can say which worker holds the batch up and on which samples.
 */
record WorkerActivity(long batch, long[] indices, long sinceNanos) {

    static WorkerActivity of(long batch, long[] indices) {
        return new WorkerActivity(batch, indices, System.nanoTime());
    }

    /** {@code "batch 5 for 1.20 s"}. */
    String describe(long nowNanos) {
        return "batch " + batch + " for " + String.format("%.2f s", (nowNanos - sinceNanos) / 1e9);
    }
}
