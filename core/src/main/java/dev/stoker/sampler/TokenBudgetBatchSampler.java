package dev.stoker.sampler;

import dev.stoker.random.Seeds;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Objects;

/**
 * Batches of as many samples as fit a token budget: variable batch size, bounded memory, with
 * fairseq's {@code batch_by_size} semantics. The samples are sorted by length (shortest first;
 * equal lengths in a seeded shuffle of (seed, epoch)), cut greedily into batches whose
 * {@link TokenCost} stays within {@code maxTokens} (and, if set, at most {@code maxBatchSize}
 * samples), and the batches are shuffled as wholes by (seed, epoch).
 *
 * <p>Because the cut depends only on the sorted lengths, every epoch has the same number of
 * batches with the same costs, while which of the equally long samples share a batch changes
 * from epoch to epoch: {@link #size()} is fixed, as the loader's resume needs. A sample longer than
 * the budget on its own is put alone in a batch of one: the only batches over budget, counted by
 * {@link #oversizedBatches()} (fairseq raises instead; filter such samples out beforehand if a
 * batch over budget does not fit the accelerator).
 *
 * <p>The global batches are dealt whole to the ranks (rank {@code r} of {@code w} takes global
 * batches {@code r, r + w, ...}), so every rank gets the same number of batches per epoch: without
 * {@code dropLast} the ranks' lists are padded by dealing the first global batches of the epoch
 * again (at most {@code w - 1}: those samples are seen twice), with {@code dropLast} the global
 * batches beyond the last multiple of {@code w} are dropped. The batches of an epoch are a pure
 * function of (lengths, budget, cost, maxBatchSize, seed, epoch, rank, world size, dropLast).
 *
 * <pre>{@code
 * BatchSampler batches = TokenBudgetBatchSampler.builder(lengths, 16_384)    // tokens per batch
 *         .cost(TokenCost.PADDED).seed(42).rank(rank).worldSize(worldSize).build();
 * DataLoader<int[]> loader = DataLoader.builder(tokens).batchSampler(batches).seed(42)
 *         .collate(PadCollate.of()).build();
 * }</pre>
 */
public final class TokenBudgetBatchSampler implements BatchSampler {
    private final int[] lengths;
    private final long maxTokens;
    private final TokenCost cost;
    private final int maxBatchSize;
    private final boolean shuffle;
    private final long seed;
    private final int rank;
    private final int worldSize;
    private final boolean dropLast;
    private final int[] starts; // batch b is sorted positions [starts[b], starts[b + 1])
    private final long oversized;
    private final BatchDeal deal;
    private volatile EpochOrder cached;

    private record EpochOrder(long epoch, int[] sorted) {
    }

    private TokenBudgetBatchSampler(Builder b) {
        if (b.maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be positive, not " + b.maxTokens);
        }
        this.lengths = b.lengths.clone();
        this.maxTokens = b.maxTokens;
        this.cost = b.cost;
        this.maxBatchSize = b.maxBatchSize;
        this.shuffle = b.shuffle;
        this.seed = b.seed;
        this.rank = b.rank;
        this.worldSize = b.worldSize;
        this.dropLast = b.dropLast;
        int[] sortedLengths = lengths.clone();
        for (int i = 0; i < sortedLengths.length; i++) {
            if (sortedLengths[i] < 0) {
                throw new IllegalArgumentException("length " + sortedLengths[i] + " of sample " + i + " is negative");
            }
        }
        Arrays.sort(sortedLengths);
        this.starts = cut(sortedLengths);
        long over = 0;
        for (int k = 0; k + 1 < starts.length; k++) {
            if (batchCost(sortedLengths, starts[k], starts[k + 1]) > maxTokens) {
                over++;
            }
        }
        this.oversized = over;
        this.deal = new BatchDeal(worldSize, rank, dropLast, starts.length - 1);
    }

    /**
     * Settings over samples of {@code lengths} tokens, batches within {@code maxTokens}: padded cost,
     * seed 0, one rank.
     */
    public static Builder builder(int[] lengths, long maxTokens) {
        return new Builder(Objects.requireNonNull(lengths, "lengths"), maxTokens);
    }

    /** The greedy cut of the ascending lengths: each batch grows while the next sample keeps it within budget. */
    private int[] cut(int[] sorted) {
        int[] out = new int[sorted.length + 1];
        int batches = 0;
        int start = 0;
        long sum = 0;
        for (int i = 0; i < sorted.length; i++) {
            int count = i - start;
            long withNext = cost == TokenCost.PADDED ? (long) sorted[i] * (count + 1) : sum + sorted[i];
            boolean full = maxBatchSize > 0 && count >= maxBatchSize;
            if (count > 0 && (withNext > maxTokens || full)) {
                out[batches++] = start;
                start = i;
                sum = 0;
            }
            sum += sorted[i];
        }
        if (sorted.length > 0) {
            out[batches++] = start;
        }
        out[batches++] = sorted.length;
        return Arrays.copyOf(out, batches);
    }

    private long batchCost(int[] sorted, int from, int to) {
        if (cost == TokenCost.PADDED) {
            return (long) sorted[to - 1] * (to - from);
        }
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += sorted[i];
        }
        return sum;
    }

    /** What {@code batch} costs against the budget, under this sampler's {@link TokenCost}. */
    public long cost(long[] batch) {
        long max = 0;
        long sum = 0;
        for (long i : batch) {
            int length = lengths[Math.toIntExact(i)];
            max = Math.max(max, length);
            sum += length;
        }
        return cost == TokenCost.PADDED ? max * batch.length : sum;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int worldSize() {
        return worldSize;
    }

    /** Batches per epoch on this rank, the same on every rank and every epoch. */
    @Override
    public long size() {
        return deal.perRank();
    }

    /** Batches per epoch of all ranks together, before padding or dropping. */
    public long globalBatches() {
        return deal.globalBatches();
    }

    /** Global batches whose single sample alone exceeds the budget. */
    public long oversizedBatches() {
        return oversized;
    }

    public long maxTokens() {
        return maxTokens;
    }

    public TokenCost tokenCost() {
        return cost;
    }

    @Override
    public Iterator<long[]> iterator(long epoch) {
        int[] sorted = sorted(epoch);
        long global = deal.globalBatches();
        FeistelPermutation batchOrder = shuffle && global > 0
                ? new FeistelPermutation(global, Seeds.mix(seed, epoch, 1)) : null;
        return new BatchPositions(size(), j -> {
            long g = deal.global(j);
            int b = (int) (batchOrder == null ? g : batchOrder.apply(g));
            long[] batch = new long[starts[b + 1] - starts[b]];
            for (int i = 0; i < batch.length; i++) {
                batch[i] = sorted[starts[b] + i];
            }
            return batch;
        });
    }

    /** The indices sorted by length, ties in the order of (seed, epoch)'s shuffle (or by index unshuffled). */
    private int[] sorted(long epoch) {
        EpochOrder c = cached;
        if (c != null && c.epoch() == epoch) {
            return c.sorted();
        }
        int n = lengths.length;
        FeistelPermutation shuffled = shuffle && n > 0 ? FeistelPermutation.of(n, seed, epoch) : null;
        long[] keys = new long[n];
        for (int j = 0; j < n; j++) {
            int index = shuffled == null ? j : (int) shuffled.apply(j);
            keys[j] = (long) lengths[index] << 32 | j;
        }
        Arrays.sort(keys);
        int[] sorted = new int[n];
        for (int k = 0; k < n; k++) {
            int j = (int) (keys[k] & 0xFFFF_FFFFL);
            sorted[k] = shuffled == null ? j : (int) shuffled.apply(j);
        }
        cached = new EpochOrder(epoch, sorted);
        return sorted;
    }

    @Override
    public String toString() {
        return "TokenBudgetBatchSampler(" + lengths.length + " samples, " + maxTokens + " tokens " + cost
                + (maxBatchSize > 0 ? ", at most " + maxBatchSize + " samples" : "") + ", "
                + deal.globalBatches() + " global batches" + (shuffle ? ", seed " + seed : ", unshuffled")
                + ", rank " + rank + " of " + worldSize + (dropLast ? ", drop last" : "") + ")";
    }

    /** Settings of a {@link TokenBudgetBatchSampler}; see {@link TokenBudgetBatchSampler#builder}. */
    public static final class Builder {
        private final int[] lengths;
        private final long maxTokens;
        private TokenCost cost = TokenCost.PADDED;
        private int maxBatchSize;
        private boolean shuffle = true;
        private long seed;
        private boolean dropLast;
        private int rank;
        private int worldSize = 1;

        private Builder(int[] lengths, long maxTokens) {
            this.lengths = lengths;
            this.maxTokens = maxTokens;
        }

        /** How a batch's tokens are counted; default {@link TokenCost#PADDED}. */
        public Builder cost(TokenCost cost) {
            this.cost = Objects.requireNonNull(cost, "cost");
            return this;
        }

        /** At most this many samples per batch as well (fairseq's {@code max_sentences}); default 0, no limit. */
        public Builder maxBatchSize(int maxBatchSize) {
            if (maxBatchSize < 0) {
                throw new IllegalArgumentException("maxBatchSize must be 0 (no limit) or more, not " + maxBatchSize);
            }
            this.maxBatchSize = maxBatchSize;
            return this;
        }

        /**
         * Whether ties and the order of batches follow (seed, epoch); default true. Unshuffled: ties by
         * index, shortest batches first.
         */
        public Builder shuffle(boolean shuffle) {
            this.shuffle = shuffle;
            return this;
        }

        /** The shuffle's seed, the same on every rank; default 0. */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Drop the global batches that do not fill a round of ranks; default false (pad by repeating). */
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

        /** @throws IllegalArgumentException for a budget below 1, a negative length or a rank outside the world */
        public TokenBudgetBatchSampler build() {
            return new TokenBudgetBatchSampler(this);
        }
    }
}
