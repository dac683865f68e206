package dev.stoker.sampler;

import dev.stoker.random.Seeds;

import java.util.Arrays;
import java.util.List;
import java.util.PrimitiveIterator;

/**
 * Mixes several sources in set shares per epoch: MosaicML Streaming's weighted mixing of streams,
 * for map-style datasets. The sources are the parts of a {@code ConcatDataset} (or any datasets
 * laid end to end), and the sampler yields indices into the concatenation; each source's
 * {@link Share} says how many of its samples an epoch takes, by proportion, by repeat or by count.
 *
 * <p>The epoch, a pure function of the settings and the epoch number:
 * <ol>
 *   <li>Source {@code k} gives {@code count[k]} samples (see {@link #counts()}): {@code count / size}
 *       full passes over it, then a subset of {@code count % size} samples without replacement,
 *       the first positions of the {@link FeistelPermutation} of its size keyed by
 *       {@code mix(seed, e, k, 1)}. With {@code resample(true)} (default) {@code e} is the epoch,
 *       so every epoch takes a fresh subset (Streaming's {@code sampling_method='balanced'});
 *       with {@code resample(false)} it is 0, the same subset every epoch ({@code 'fixed'}).
 *   <li>The sources' samples are laid end to end, source 0 first, and with {@code shuffle(true)}
 *       (default) that list of {@code N = sum(count)} is shuffled as a whole by the permutation
 *       keyed by {@code mix(seed, epoch)}, so every stretch of it holds the sources in about
 *       their shares.
 *   <li>With {@code stratified(B)} every global batch (each run of {@code B} positions) holds
 *       each source in the same count instead, {@code B} shared out as the counts are (the
 *       cumulative rounding of {@code B·count[k]/N}), as MosaicML Streaming's
 *       {@code batching_method="stratified"} does: batch {@code b}'s sources are placed by the
 *       permutation of {@code B} keyed by {@code mix(seed, epoch, b, 3)}, each source's samples
 *       come pass by pass (full pass {@code p} in the order of the permutation keyed by
 *       {@code mix(seed, epoch, k, 2, p)}, then the subset), and the epoch ends with the last
 *       whole batch that every source can fill.
 *   <li>With {@code numReplicas > 1}, rank {@code r} takes positions {@code r, r + R, r + 2R, ...}
 *       of the list, padded by wrapping to a multiple of {@code R} or cut to one with
 *       {@code dropLast}, exactly as {@link DistributedSampler} does with a dataset.
 * </ol>
 * Nothing of the sources' sizes is built: a position maps to its index through two permutations
 * and a search over the sources, so resume skips to any position at no cost. To resume on another
 * number of ranks, build it for one rank and give it to {@link ElasticBatchSampler#over} as the
 * global order.
 *
 * <pre>{@code
 * ConcatDataset<Window> all = Datasets.concat(web, books, code);
 * MixtureSampler mix = MixtureSampler.builder(all.partSizes())
 *         .shares(Share.proportion(0.6), Share.proportion(0.3), Share.proportion(0.1))
 *         .epochSize(1_000_000)            // default: the sum of the sources' sizes
 *         .seed(42)
 *         .build();
 * DataLoader<Window> loader = DataLoader.builder(all).sampler(mix).batchSize(64).build();
 * }</pre>
 */
public final class MixtureSampler implements Sampler {
    private final long[] sizes;
    /** {@code offsets[k]}: index of source k's first sample in the concatenation. */
    private final long[] offsets;
    private final long[] counts;
    /** {@code ends[k]}: one past source k's last position in the epoch's list. */
    private final long[] ends;
    private final long listSize;
    private final boolean shuffle;
    private final boolean resample;
    private final long seed;
    private final ReplicaSplit split;
    private final long numSamples;
    /** The global batch of a stratified mixture, or 0. */
    private final int stratum;
    /** Per global batch, each source's count; and {@code batchEnds[k]}, one past source k's slots. */
    private final long[] perBatch;
    private final long[] batchEnds;

    private MixtureSampler(Builder b) {
        if (b.sizes.length == 0) {
            throw new IllegalArgumentException("a mixture needs at least one source");
        }
        this.sizes = b.sizes.clone();
        this.offsets = new long[sizes.length];
        for (int k = 0; k < sizes.length; k++) {
            if (sizes[k] < 0) {
                throw new IllegalArgumentException("source " + k + " has a negative size " + sizes[k]);
            }
            if (k > 0) {
                offsets[k] = Math.addExact(offsets[k - 1], sizes[k - 1]);
            }
        }
        MixtureCounts.total(sizes);
        this.split = new ReplicaSplit(b.numReplicas, b.rank, b.dropLast);
        this.counts = MixtureCounts.of(sizes, b.shares, b.epochSize);
        this.ends = new long[counts.length];
        long end = 0;
        for (int k = 0; k < counts.length; k++) {
            end += counts[k];
            ends[k] = end;
        }
        this.stratum = b.stratum;
        if (stratum > 0) {
            if (stratum % b.numReplicas != 0) {
                throw new IllegalArgumentException("a stratified global batch of " + stratum + " does not split into "
                        + b.numReplicas + " ranks' batches: make it a multiple of numReplicas");
            }
            double[] weights = new double[counts.length];
            for (int k = 0; k < counts.length; k++) {
                weights[k] = counts[k];
            }
            long total = MixtureCounts.total(counts);
            this.perBatch = total == 0 ? new long[counts.length] : MixtureCounts.shareOut(weights, stratum);
            this.batchEnds = new long[counts.length];
            long batches = total == 0 ? 0 : Long.MAX_VALUE;
            long sum = 0;
            for (int k = 0; k < counts.length; k++) {
                sum += perBatch[k];
                batchEnds[k] = sum;
                if (perBatch[k] > 0) {
                    batches = Math.min(batches, counts[k] / perBatch[k]);
                }
            }
            this.listSize = batches * stratum;
        } else {
            this.perBatch = null;
            this.batchEnds = null;
            this.listSize = MixtureCounts.total(counts);
        }
        this.shuffle = b.shuffle;
        this.resample = b.resample;
        this.seed = b.seed;
        this.numSamples = split.perReplica(listSize);
    }

    /**
     * A builder over sources of these sizes, laid end to end in this order: for a
     * {@code ConcatDataset}, {@code builder(concat.partSizes())}.
     */
    public static Builder builder(long... sourceSizes) {
        return new Builder(sourceSizes.clone());
    }

    /** Indices this rank yields per epoch. */
    @Override
    public long size() {
        return numSamples;
    }

    /**
     * Samples each source gives per epoch, across all ranks and before padding (stratified, what
     * the whole global batches hold); a copy.
     */
    public long[] counts() {
        if (stratum == 0) {
            return counts.clone();
        }
        long[] out = new long[counts.length];
        for (int k = 0; k < out.length; k++) {
            out[k] = listSize / stratum * perBatch[k];
        }
        return out;
    }

    /** Each source's count in every global batch of a stratified mixture; empty when not stratified. */
    public long[] perGlobalBatch() {
        return perBatch == null ? new long[0] : perBatch.clone();
    }

    /** The sources' sizes; a copy. */
    public long[] sourceSizes() {
        return sizes.clone();
    }

    /** Samples all ranks yield together per epoch before padding: the sum of {@link #counts()}. */
    public long epochSize() {
        return listSize;
    }

    /** Which source a concatenation index belongs to. */
    public int sourceOf(long index) {
        if (index < 0 || index >= offsets[offsets.length - 1] + sizes[sizes.length - 1]) {
            throw new IndexOutOfBoundsException("index " + index + " is outside the mixture's "
                    + (offsets[offsets.length - 1] + sizes[sizes.length - 1]) + " samples");
        }
        int k = Arrays.binarySearch(offsets, index);
        if (k >= 0) {
            while (k + 1 < sizes.length && offsets[k + 1] == index) {
                k++; // empty sources share their successor's offset
            }
            return k;
        }
        return -k - 2;
    }

    @Override
    public PrimitiveIterator.OfLong iterator(long epoch) {
        FeistelPermutation[] subsets = new FeistelPermutation[counts.length];
        long subsetEpoch = resample ? epoch : 0;
        for (int k = 0; k < counts.length; k++) {
            if (counts[k] % Math.max(1, sizes[k]) != 0) {
                subsets[k] = new FeistelPermutation(sizes[k], Seeds.mix(seed, subsetEpoch, k, 1));
            }
        }
        if (stratum > 0) {
            return stratified(epoch, subsets);
        }
        FeistelPermutation order = shuffle && listSize > 0 ? FeistelPermutation.of(listSize, seed, epoch) : null;
        long n = listSize;
        return new IndexIterator(numSamples, j -> {
            long q = split.position(j, n);
            return indexAt(order == null ? q : order.apply(q), subsets);
        });
    }

    /** Global batch by global batch, each with the same count of every source. */
    private PrimitiveIterator.OfLong stratified(long epoch, FeistelPermutation[] subsets) {
        // A source's samples come pass by pass, each full pass in its own order: a batch's share of
        // them is the next stretch of that stream, so no sample repeats before all have come.
        long[] passOf = new long[counts.length];
        Arrays.fill(passOf, -1);
        FeistelPermutation[] passOrder = new FeistelPermutation[counts.length];
        long n = listSize;
        long[] slotBatch = {-1};
        FeistelPermutation[] slots = new FeistelPermutation[1];
        return new IndexIterator(numSamples, j -> {
            long p = split.position(j, n);
            long b = p / stratum;
            long q = p - b * stratum;
            if (shuffle) {
                if (slotBatch[0] != b) { // one permutation per batch, kept while the batch lasts
                    slotBatch[0] = b;
                    slots[0] = new FeistelPermutation(stratum, Seeds.mix(seed, epoch, b, 3));
                }
                q = slots[0].apply(q);
            }
            int k = Arrays.binarySearch(batchEnds, q);
            k = k >= 0 ? k + 1 : -k - 1;
            while (perBatch[k] == 0) {
                k++;
            }
            long r = b * perBatch[k] + (q - (batchEnds[k] - perBatch[k]));
            long size = sizes[k];
            long pass = r / size;
            if (!shuffle || pass == counts[k] / size) {
                return sourceIndex(k, r, subsets); // in order, or the last pass's subset
            }
            if (passOf[k] != pass) {
                passOf[k] = pass;
                passOrder[k] = new FeistelPermutation(size, Seeds.mix(seed, epoch, k, 2, pass));
            }
            return offsets[k] + passOrder[k].apply(r - pass * size);
        });
    }

    private long indexAt(long position, FeistelPermutation[] subsets) {
        int k = Arrays.binarySearch(ends, position);
        k = k >= 0 ? k + 1 : -k - 1;
        while (counts[k] == 0) {
            k++; // a source with no samples ends where its predecessor did
        }
        return sourceIndex(k, position - (ends[k] - counts[k]), subsets);
    }

    /** Sample {@code local} of source k's selection (full passes, then the subset) as a concatenation index. */
    private long sourceIndex(int k, long local, FeistelPermutation[] subsets) {
        long size = sizes[k];
        long pass = local / size;
        long within = local - pass * size;
        boolean partial = pass == counts[k] / size;
        return offsets[k] + (partial ? subsets[k].apply(within) : within);
    }

    @Override
    public String toString() {
        return "MixtureSampler[sizes=" + Arrays.toString(sizes) + ", counts=" + Arrays.toString(counts)
                + (stratum > 0 ? ", stratified per " + stratum + " as " + Arrays.toString(perBatch) : "")
                + ", shuffle=" + shuffle + ", resample=" + resample + ", seed=" + seed
                + ", numReplicas=" + split.numReplicas() + ", rank=" + split.rank() + ", dropLast=" + split.dropLast()
                + "]";
    }

    /** Settings of a {@link MixtureSampler}; see {@link MixtureSampler#builder}. */
    public static final class Builder {
        private final long[] sizes;
        private List<Share> shares;
        private long epochSize = -1;
        private boolean shuffle = true;
        private boolean resample = true;
        private long seed;
        private int numReplicas = 1;
        private int rank;
        private boolean dropLast;
        private int stratum;

        private Builder(long[] sizes) {
            this.sizes = sizes;
        }

        /**
         * One share per source, in order. Without shares every source gives each of its samples
         * once per epoch, or, with {@link #epochSize}, a count in proportion to its size.
         */
        public Builder shares(Share... shares) {
            this.shares = List.of(shares);
            return this;
        }

        /** One share per source, in order; see {@link #shares(Share...)}. */
        public Builder shares(List<Share> shares) {
            this.shares = List.copyOf(shares);
            return this;
        }

        /**
         * Samples per epoch across all ranks, shared out by the proportions; default the sum of
         * the sources' sizes. Not for repeat and choose, which fix their counts themselves.
         */
        public Builder epochSize(long epochSize) {
            if (epochSize < 0) {
                throw new IllegalArgumentException("epochSize must be >= 0, got " + epochSize);
            }
            this.epochSize = epochSize;
            return this;
        }

        /** Whether the epoch's samples are shuffled together (default) or come source by source. */
        public Builder shuffle(boolean shuffle) {
            this.shuffle = shuffle;
            return this;
        }

        /**
         * Whether a source that gives part of itself takes a fresh subset every epoch (default) or
         * the same subset every epoch.
         */
        public Builder resample(boolean resample) {
            this.resample = resample;
            return this;
        }

        /** The seed of the subsets and the shuffle, the same on every rank; default 0. */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** The number of processes sharing the epoch (the world size); default 1. */
        public Builder numReplicas(int numReplicas) {
            this.numReplicas = numReplicas;
            return this;
        }

        /** This process's rank, in {@code [0, numReplicas)}; default 0. */
        public Builder rank(int rank) {
            this.rank = rank;
            return this;
        }

        /** Cut the epoch to a multiple of numReplicas instead of padding it; default false. */
        public Builder dropLast(boolean dropLast) {
            this.dropLast = dropLast;
            return this;
        }

        /**
         * Every global batch of {@code globalBatchSize} (the batch size times numReplicas) holds
         * each source in the same count, the shares rounded to the batch, and the epoch stops at
         * the last whole batch every source can fill (MosaicML Streaming's stratified batching).
         * Give the loader batches of {@code globalBatchSize / numReplicas}.
         */
        public Builder stratified(int globalBatchSize) {
            if (globalBatchSize < 1) {
                throw new IllegalArgumentException("a global batch has at least one sample, not " + globalBatchSize);
            }
            this.stratum = globalBatchSize;
            return this;
        }

        /**
         * @throws IllegalArgumentException for no sources, a negative size, shares that do not fit
         *                                  the sources (wrong number, proportions mixed with absolute
         *                                  counts, samples asked of an empty source), or a bad rank
         */
        public MixtureSampler build() {
            return new MixtureSampler(this);
        }
    }
}
