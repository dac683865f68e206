package dev.stoker.sampler;

import java.util.Iterator;
import java.util.Objects;

/**
 * Batches of similar lengths, as Hugging Face's {@code group_by_length=True} makes them: the
 * epoch's order is {@link LengthGroupedOrder} (mega-batches of a seeded shuffle, each sorted
 * longest first, the longest batch of the epoch first), cut into global batches of
 * {@code batchSize}, and the global batches are dealt whole to the ranks: rank {@code r} of
 * {@code w} takes global batches {@code r, r + w, ...}.
 *
 * <p>Every rank gets the same number of batches per epoch, so no rank waits at a collective for a
 * batch another never sends. Without {@code dropLast} the last global batch may be short and the
 * ranks' lists are padded by dealing the first global batches of the epoch again (at most
 * {@code w - 1} of them: those samples are seen twice in the epoch, as with PyTorch's
 * {@code DistributedSampler}); with {@code dropLast} the short batch and the global batches
 * beyond the last multiple of {@code w} are dropped (those samples are not seen this epoch).
 *
 * <p>The batches of an epoch are a pure function of (lengths, batch size, multiplier, seed, epoch,
 * rank, world size, dropLast): the loader resumes at any batch by asking for the same epoch again.
 * The epoch's order is computed once per epoch (O(n log m) for n samples in mega-batches of m) and
 * kept until another epoch is asked for.
 *
 * <pre>{@code
 * int[] lengths = ...;                              // tokens per sample, known up front
 * BatchSampler batches = LengthGroupedBatchSampler.builder(lengths, 16)
 *         .seed(42).rank(rank).worldSize(worldSize).build();
 * DataLoader<int[]> loader = DataLoader.builder(tokens).batchSampler(batches).seed(42)
 *         .collate(PadCollate.of()).numWorkers(4).build();
 * }</pre>
 */
public final class LengthGroupedBatchSampler implements BatchSampler {
    private final int[] lengths;
    private final int batchSize;
    private final int megaBatchMult;
    private final long seed;
    private final boolean dropLast;
    private final int rank;
    private final int worldSize;
    private final BatchDeal deal;
    private volatile EpochOrder cached;

    private record EpochOrder(long epoch, int[] order) {
    }

    private LengthGroupedBatchSampler(Builder b) {
        if (b.batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive, not " + b.batchSize);
        }
        this.lengths = b.lengths.clone();
        this.batchSize = b.batchSize;
        this.megaBatchMult = b.megaBatchMult > 0 ? b.megaBatchMult
                : LengthGroupedOrder.defaultMegaBatchMult(lengths.length, batchSize);
        this.seed = b.seed;
        this.dropLast = b.dropLast;
        this.rank = b.rank;
        this.worldSize = b.worldSize;
        long n = lengths.length;
        long global = dropLast ? n / batchSize : Math.ceilDiv(n, (long) batchSize);
        this.deal = new BatchDeal(worldSize, rank, dropLast, global);
        for (int i = 0; i < lengths.length; i++) {
            if (lengths[i] < 0) {
                throw new IllegalArgumentException("length " + lengths[i] + " of sample " + i + " is negative");
            }
        }
    }

    /**
     * Settings over samples of {@code lengths} (any measure: tokens, frames), batches of
     * {@code batchSize}: seed 0, one rank, HF's default multiplier, no dropLast.
     */
    public static Builder builder(int[] lengths, int batchSize) {
        return new Builder(Objects.requireNonNull(lengths, "lengths"), batchSize);
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int worldSize() {
        return worldSize;
    }

    /** Batches per epoch on this rank, the same on every rank. */
    @Override
    public long size() {
        return deal.perRank();
    }

    /** Global batches per epoch, before they are dealt to the ranks. */
    public long globalBatches() {
        return deal.globalBatches();
    }

    public int megaBatchMult() {
        return megaBatchMult;
    }

    @Override
    public Iterator<long[]> iterator(long epoch) {
        int[] order = order(epoch);
        return new BatchPositions(size(), j -> {
            int from = Math.toIntExact(deal.global(j) * batchSize);
            int to = Math.min(order.length, from + batchSize);
            long[] batch = new long[to - from];
            for (int i = 0; i < batch.length; i++) {
                batch[i] = order[from + i];
            }
            return batch;
        });
    }

    private int[] order(long epoch) {
        EpochOrder c = cached;
        if (c == null || c.epoch() != epoch) {
            c = new EpochOrder(epoch, LengthGroupedOrder.indices(lengths, batchSize, megaBatchMult, seed, epoch));
            cached = c;
        }
        return c.order();
    }

    @Override
    public String toString() {
        return "LengthGroupedBatchSampler(" + lengths.length + " samples, batch " + batchSize + ", mega-batch x"
                + megaBatchMult + ", seed " + seed + ", rank " + rank + " of " + worldSize
                + (dropLast ? ", drop last" : "") + ")";
    }

    /** Settings of a {@link LengthGroupedBatchSampler}; see {@link LengthGroupedBatchSampler#builder}. */
    public static final class Builder {
        private final int[] lengths;
        private final int batchSize;
        private int megaBatchMult;
        private long seed;
        private boolean dropLast;
        private int rank;
        private int worldSize = 1;

        private Builder(int[] lengths, int batchSize) {
            this.lengths = lengths;
            this.batchSize = batchSize;
        }

        /** Mega-batches of {@code megaBatchMult * batchSize}; default HF's {@code min(n / (4 * batchSize), 50)}. */
        public Builder megaBatchMult(int megaBatchMult) {
            if (megaBatchMult < 1) {
                throw new IllegalArgumentException("megaBatchMult must be positive, not " + megaBatchMult);
            }
            this.megaBatchMult = megaBatchMult;
            return this;
        }

        /** The shuffle's seed, the same on every rank; default 0. */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Drop the short last batch and the batches that do not fill a round of ranks; default false (pad). */
        public Builder dropLast(boolean dropLast) {
            this.dropLast = dropLast;
            return this;
        }

        /** This process's rank, in {@code [0, worldSize)}; default 0. */
        public Builder rank(int rank) {
            this.rank = rank;
            return this;
        }

        /** The number of ranks sharing the epoch; default 1. */
        public Builder worldSize(int worldSize) {
            this.worldSize = worldSize;
            return this;
        }

        /** @throws IllegalArgumentException for a batch size below 1, a negative length or a rank outside the world */
        public LengthGroupedBatchSampler build() {
            return new LengthGroupedBatchSampler(this);
        }
    }
}
