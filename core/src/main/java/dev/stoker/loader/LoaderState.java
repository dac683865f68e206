package dev.stoker.loader;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Where a loader stands, taken at any batch with {@link DataLoader#state()} and given to
 * {@link DataLoader#restore} on a new loader (in another process; for a map-style dataset with
 * another number of workers) so that it goes on with exactly the batches an uninterrupted run
 * would have delivered.
 *
 * <p>It holds no sample and no random state: the order of an epoch is a pure function of the seed
 * and the epoch, and the generators of random transforms are keyed on the batch (see
 * {@link dev.stoker.data.WorkerContext}), so knowing which batches of the epoch were delivered is
 * enough. For a streaming dataset, which has no order to compute, it holds each stream's position
 * instead ({@link StreamState}). A record of numbers: {@link #toJson()} and {@link #fromJson} write
 * and read it as JSON, and so does Jackson (2.12 and later), to the same text.
 *
 * <pre>{@code
 * LoaderState saved = loader.state();                 // e.g. in a checkpoint, beside the model
 * // ... later, in a new process:
 * DataLoader<Sample> again = DataLoader.builder(dataset).batchSize(64).shuffle(true).seed(42).build();
 * again.restore(saved);
 * for (Batch b : again) { ... }                       // the rest of the epoch, then the next epochs
 * }</pre>
 *
 * @param epoch           the epoch to go on with
 * @param nextBatch       every batch before this one was delivered in that epoch
 * @param deliveredAhead  batches at or after {@code nextBatch} delivered already (out-of-order
 *                        delivery), ascending
 * @param seed            the loader's seed, checked on restore
 * @param datasetSize     the dataset's size, checked on restore; -1 for a streaming dataset
 * @param batchesPerEpoch the loader's batches per epoch, checked on restore (it covers batch size,
 *                        drop last, sampler and world size); -1 for a streaming dataset
 * @param streams         where each stream stands, for a streaming dataset; null for a map-style one
 * @param rank            a map-style loader's rank, of {@code worldSize}, from its batch sampler
 *                        ({@link dev.stoker.sampler.BatchSampler#rank()}), checked on restore; 0
 *                        when {@code worldSize} is 0
 * @param worldSize       the number of ranks its batch sampler splits the dataset across, checked on
 *                        restore; 0 where it was not recorded: a streaming state (its
 *                        {@link StreamState} holds rank and world size) or a map-style state saved
 *                        before Stoker recorded them (read from JSON without the field), which
 *                        restores unchecked as before
 */
public record LoaderState(long epoch, long nextBatch, long[] deliveredAhead, long seed, long datasetSize,
                          long batchesPerEpoch, StreamState streams, int rank, int worldSize) {
    /**
     * The largest epoch, count or position a state may hold: 2^53. No run comes near it, every JSON
     * reader keeps such a number exactly, and the loader's arithmetic on it cannot overflow.
     */
    public static final long MAX_COUNT = StateLimits.MAX_COUNT;

    /**
     * Checks every part, as a state read from a file is untrusted: Jackson reads a record through
     * this constructor, so a forged or damaged state is refused while it is read.
     *
     * @throws IllegalArgumentException saying what is wrong
     */
    public LoaderState {
        if (deliveredAhead == null) {
            throw new IllegalArgumentException("a loader state needs deliveredAhead, the batches delivered ahead of"
                    + " nextBatch ([] when none); this one has none (a state from another program?)");
        }
        if (epoch < 0 || epoch > MAX_COUNT) {
            throw new IllegalArgumentException("a loader state's epoch is 0 to 2^53, not " + epoch);
        }
        if (streams != null) {
            if (epoch < 0 || nextBatch != streams.delivered() || deliveredAhead.length != 0 || datasetSize != -1
                    || batchesPerEpoch != -1) {
                throw new IllegalArgumentException("a streaming loader state at batch " + nextBatch + " of epoch "
                        + epoch + " does not match its " + streams);
            }
        } else if (datasetSize < 0 || batchesPerEpoch < 0 || nextBatch < 0 || nextBatch > batchesPerEpoch) {
            throw new IllegalArgumentException("a loader state at batch " + nextBatch + " of epoch " + epoch
                    + " with " + batchesPerEpoch + " batches per epoch of " + datasetSize + " samples is not a position");
        }
        if (streams != null ? rank != 0 || worldSize != 0
                : worldSize < 0 || (worldSize == 0 ? rank != 0 : rank < 0 || rank >= worldSize)) {
            throw new IllegalArgumentException("a loader state's rank " + rank + " of a world of " + worldSize
                    + " is no rank: " + (streams != null ? "a streaming state keeps them in its streams (0 and 0 here)"
                    : "0 <= rank < worldSize, or 0 and 0 for a state that did not record them"));
        }
        deliveredAhead = deliveredAhead.clone();
        for (int i = 0; i < deliveredAhead.length; i++) {
            if (deliveredAhead[i] <= nextBatch || deliveredAhead[i] >= batchesPerEpoch
                    || (i > 0 && deliveredAhead[i] <= deliveredAhead[i - 1])) {
                throw new IllegalArgumentException("batches delivered ahead " + Arrays.toString(deliveredAhead)
                        + " must ascend, each after batch " + nextBatch + " and before " + batchesPerEpoch);
            }
        }
    }

    /**
     * A state without a map-style loader's rank and world size (0 and 0): a streaming loader's, or
     * a map-style loader's from before Stoker recorded them, restored without their check.
     */
    public LoaderState(long epoch, long nextBatch, long[] deliveredAhead, long seed, long datasetSize,
                       long batchesPerEpoch, StreamState streams) {
        this(epoch, nextBatch, deliveredAhead, seed, datasetSize, batchesPerEpoch, streams, 0, 0);
    }

    /** A map-style loader's state, without rank and world size (see {@link #LoaderState(long, long, long[], long, long, long, StreamState)}). */
    public LoaderState(long epoch, long nextBatch, long[] deliveredAhead, long seed, long datasetSize,
                       long batchesPerEpoch) {
        this(epoch, nextBatch, deliveredAhead, seed, datasetSize, batchesPerEpoch, null);
    }

    /**
     * This state as JSON, to keep in a checkpoint beside the model: the text Jackson writes for the
     * record, so either reads what the other wrote.
     *
     * <pre>{@code
     * Files.writeString(dir.resolve("loader.json"), loader.state().toJson());
     * // ... in the new process:
     * loader.restore(LoaderState.fromJson(Files.readString(dir.resolve("loader.json"))));
     * }</pre>
     */
    public String toJson() {
        return StateJson.write(this);
    }

    /**
     * Reads a state written by {@link #toJson()} (or by Jackson from this record). The text is
     * untrusted: it is read strictly (whole numbers, known fields, each once, at most 16 Mi
     * characters) and every part is checked as the constructors check it.
     *
     * @throws IllegalArgumentException saying where the text is not a state, or what in it is wrong
     */
    public static LoaderState fromJson(String json) {
        return StateJson.read(Objects.requireNonNull(json, "json"));
    }

    /** A map-style loader's state, taken by {@code rank} of {@code worldSize}. */
    public static LoaderState ofMap(long epoch, long nextBatch, long[] deliveredAhead, long seed, long datasetSize,
                                    long batchesPerEpoch, int rank, int worldSize) {
        return new LoaderState(epoch, nextBatch, deliveredAhead, seed, datasetSize, batchesPerEpoch, null, rank,
                worldSize);
    }

    /** A streaming loader's state. */
    static LoaderState ofStreams(long epoch, long seed, StreamState streams) {
        return new LoaderState(epoch, streams.delivered(), new long[0], seed, -1, -1, streams);
    }

    /**
     * The states of every rank of a streaming job, taken at the same step, as one: the streams of
     * all its workers (global worker {@code g} = rank x workers + worker), as if one rank ran them
     * all. Restoring it on a loader with another number of workers or ranks deals what is left of
     * the epoch out again, when the dataset is a
     * {@link dev.stoker.data.ReshardableStreamingDataset}; each rank of the new job restores the
     * same merged state.
     *
     * <pre>{@code
     * LoaderState all = LoaderState.merge(List.of(rank0.state(), rank1.state()));  // gathered to one place
     * // a job of 3 ranks, each:
     * loader.restore(all);
     * }</pre>
     *
     * @throws IllegalArgumentException when the states are not one streaming job's at one step:
     *     a rank missing or twice, other epochs, seeds, batch sizes, worker counts or starts
     */
    public static LoaderState merge(List<LoaderState> ranks) {
        if (ranks.isEmpty()) {
            throw new IllegalArgumentException("merge needs the state of every rank, not none");
        }
        for (LoaderState r : ranks) {
            if (r.streams == null) {
                throw new IllegalArgumentException("only the states of streaming loaders merge; a map-style state"
                        + " holds no streams: " + r);
            }
        }
        // A rank whose streams all ran out stands at the start of the next epoch: in the epoch the
        // others are in, its streams are over.
        long epoch = ranks.stream().mapToLong(LoaderState::epoch).min().orElseThrow();
        LoaderState first = ranks.stream().filter(r -> r.epoch == epoch).findFirst().orElseThrow();
        StreamState f = first.streams;
        int world = f.worldSize();
        if (ranks.size() != world) {
            throw new IllegalArgumentException("the job has " + world + " ranks, so merge needs " + world
                    + " states, one per rank, not " + ranks.size());
        }
        StreamState[] byRank = new StreamState[world];
        for (LoaderState r : ranks) {
            StreamState s = r.streams;
            boolean over = r.epoch == epoch + 1 && s.delivered() == 0 && s.start() == null;
            if (!(r.epoch == epoch || over) || r.seed != first.seed || s.worldSize() != world
                    || s.batchSize() != f.batchSize() || s.streams() != f.streams()
                    || (!over && !Arrays.equals(s.start(), f.start()))) {
                throw new IllegalArgumentException("these states are not one job's at one step: " + r + " against "
                        + first + " (epoch, seed, world size, batch size, workers and start must agree)");
            }
            if (byRank[s.rank()] != null) {
                throw new IllegalArgumentException("rank " + s.rank() + "'s state is given twice");
            }
            byRank[s.rank()] = over ? ended(s) : s;
        }
        int n = f.streams();
        long[] samples = new long[world * n];
        long[] batches = new long[world * n];
        boolean[] ended = new boolean[world * n];
        long delivered = 0;
        for (int r = 0; r < world; r++) {
            StreamState s = byRank[r];
            System.arraycopy(s.samples(), 0, samples, r * n, n);
            System.arraycopy(s.batches(), 0, batches, r * n, n);
            System.arraycopy(s.ended(), 0, ended, r * n, n);
            delivered += s.delivered();
        }
        return ofStreams(first.epoch, first.seed,
                new StreamState(0, 1, f.batchSize(), 0, delivered, samples, batches, ended, f.start()));
    }

    /** {@code s}'s streams, every one over. */
    private static StreamState ended(StreamState s) {
        boolean[] over = new boolean[s.streams()];
        Arrays.fill(over, true);
        return new StreamState(s.rank(), s.worldSize(), s.batchSize(), 0, 0, new long[s.streams()],
                new long[s.streams()], over, null);
    }

    @Override
    public long[] deliveredAhead() {
        return deliveredAhead.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LoaderState s && epoch == s.epoch && nextBatch == s.nextBatch && seed == s.seed
                && datasetSize == s.datasetSize && batchesPerEpoch == s.batchesPerEpoch
                && Arrays.equals(deliveredAhead, s.deliveredAhead) && Objects.equals(streams, s.streams)
                && rank == s.rank && worldSize == s.worldSize;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(epoch) * 31 + Long.hashCode(nextBatch) * 17 + Arrays.hashCode(deliveredAhead);
    }

    @Override
    public String toString() {
        if (streams != null) {
            return "LoaderState(epoch " + epoch + ", " + nextBatch + " batches delivered, seed " + seed + ", "
                    + streams + ")";
        }
        return "LoaderState(epoch " + epoch + ", next batch " + nextBatch
                + (deliveredAhead.length == 0 ? "" : ", delivered ahead " + Arrays.toString(deliveredAhead))
                + " of " + batchesPerEpoch + ", seed " + seed + ", " + datasetSize + " samples"
                + (worldSize == 0 ? "" : ", rank " + rank + " of " + worldSize) + ")";
    }
}
