package dev.stoker.loader;

import java.util.Arrays;

/**
 * Where each stream of a streaming loader stands, the part of a {@link LoaderState} that a
 * map-style loader does not need: for each of this rank's workers (one without workers), how many
 * samples of its stream and how many of its batches the consumer has received, whether its stream
 * is over, and whose turn is next.
 *
 * <p>A resumed worker opens its stream with the same {@link dev.stoker.data.WorkerContext} as
 * before and moves past the samples already delivered with
 * {@link dev.stoker.data.SampleStream#skip}, so the shard assignment must be the same: same number
 * of workers, same rank and world size, same batch size. {@link DataLoader#restore} checks.
 *
 * <pre>{@code
 * LoaderState s = loader.state();
 * StreamState streams = s.streams();     // e.g. samples [640, 576], batches [10, 9], turn 1
 * }</pre>
 *
 * @param rank      the rank the loader read for
 * @param worldSize the ranks of the job
 * @param batchSize samples per batch
 * @param turn      the worker whose batch comes next, in order
 * @param delivered batches delivered in the epoch, from all workers (failures not counted)
 * @param samples   per worker: samples of its stream delivered (or skipped as bad) so far
 * @param batches   per worker: its batches delivered (or failed) so far
 * @param ended     per worker: its stream is over (read to the end, or failed)
 * @param start     where the epoch's streams started, in the dataset's terms, when it was resumed on
 *                  another layout ({@link dev.stoker.data.ReshardableStreamingDataset}'s cursor); null when the
 *                  streams started at the start of the epoch
 */
public record StreamState(int rank, int worldSize, int batchSize, int turn, long delivered, long[] samples,
                          long[] batches, boolean[] ended, long[] start) {

    /**
     * Checks every part, as a state read from a file is untrusted (see {@link LoaderState}).
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public StreamState {
        if (samples == null || batches == null || ended == null) {
            throw new IllegalArgumentException("a stream state needs samples, batches and ended, one per worker;"
                    + " this one has " + (samples == null ? "no samples" : batches == null ? "no batches" : "no ended"));
        }
        int n = samples.length;
        if (n < 1 || batches.length != n || ended.length != n) {
            throw new IllegalArgumentException("a stream state has one position, batch count and end flag per worker,"
                    + " at least one: " + n + " positions, " + batches.length + " batch counts, " + ended.length
                    + " end flags");
        }
        if (turn < 0 || turn >= n || delivered < 0 || worldSize < 1 || rank < 0 || rank >= worldSize || batchSize < 1) {
            throw new IllegalArgumentException("a stream state for rank " + rank + " of " + worldSize + ", batch size "
                    + batchSize + ", at worker " + turn + "'s turn of " + n + " is not a position");
        }
        long batchesInAll = 0;
        for (int w = 0; w < n; w++) {
            // every batch a stream counts took at least one of its samples (delivered or skipped)
            if (samples[w] < 0 || batches[w] < 0 || samples[w] > StateLimits.MAX_COUNT || batches[w] > samples[w]) {
                throw new IllegalArgumentException("worker " + w + " of a stream state stands at sample " + samples[w]
                        + ", batch " + batches[w] + ": not a position (0 <= batch <= sample <= 2^53)");
            }
            batchesInAll += batches[w];
        }
        if (delivered > batchesInAll) {
            throw new IllegalArgumentException("a stream state says " + delivered + " batches were delivered, but its"
                    + " workers counted " + batchesInAll);
        }
        samples = samples.clone();
        batches = batches.clone();
        ended = ended.clone();
        start = start == null ? null : start.clone();
    }

    /** A state of streams that started at the start of the epoch. */
    public StreamState(int rank, int worldSize, int batchSize, int turn, long delivered, long[] samples,
                       long[] batches, boolean[] ended) {
        this(rank, worldSize, batchSize, turn, delivered, samples, batches, ended, null);
    }

    /** A state at the start of an epoch, with {@code streams} workers starting at {@code start} (null: the epoch's start). */
    static StreamState start(int rank, int worldSize, int batchSize, int streams, long[] start) {
        return new StreamState(rank, worldSize, batchSize, 0, 0, new long[streams], new long[streams],
                new boolean[streams], start);
    }

    /** Workers (streams) of this rank. */
    public int streams() {
        return samples.length;
    }

    @Override
    public long[] samples() {
        return samples.clone();
    }

    @Override
    public long[] batches() {
        return batches.clone();
    }

    @Override
    public boolean[] ended() {
        return ended.clone();
    }

    @Override
    public long[] start() {
        return start == null ? null : start.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StreamState s && rank == s.rank && worldSize == s.worldSize && batchSize == s.batchSize
                && turn == s.turn && delivered == s.delivered && Arrays.equals(samples, s.samples) && Arrays.equals(batches, s.batches)
                && Arrays.equals(ended, s.ended) && Arrays.equals(start, s.start);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(samples) * 31 + Arrays.hashCode(batches) * 17 + turn;
    }

    @Override
    public String toString() {
        return "streams of rank " + rank + "/" + worldSize + " (" + delivered + " batches delivered, samples " + Arrays.toString(samples) + ", batches "
                + Arrays.toString(batches) + ", ended " + Arrays.toString(ended) + ", turn " + turn
                + (start == null ? "" : ", resharded from a cursor of " + start.length) + ")";
    }
}
