package dev.stoker.data;

import dev.stoker.random.Seeds;

import dev.stoker.sampler.FeistelPermutation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Datasets made from other datasets, as in {@code torch.utils.data}: a subset, a concatenation,
 * a per-sample transform, a random split. Each keeps the batched fetch of the datasets below it.
 *
 * <pre>{@code
 * Dataset<Sample> all = ...;
 * List<SubsetDataset<Sample>> parts = Datasets.randomSplit(all, new double[] {0.8, 0.2}, 42);
 * Dataset<Sample> train = parts.get(0), validation = parts.get(1);
 * Dataset<Tensor> images = Datasets.map(train, Sample::image);
 * Dataset<Sample> both = Datasets.concat(train, validation);
 * }</pre>
 *
 * <p>To draw from several datasets in set shares rather than one after another, give the loader a
 * {@link dev.stoker.sampler.MixtureSampler} over their concatenation; for streaming datasets,
 * {@link MixedStreamingDataset}.
 */
public final class Datasets {
    /** Relative tolerance of "the fractions sum to 1", as Python's {@code math.isclose}. */
    private static final double SUM_TOLERANCE = 1e-9;
    /** Salt of randomSplit's permutation key ("split" in ASCII). */
    private static final long SPLIT_SALT = 0x73706C6974L;

    private Datasets() {}

    /**
     * The samples of {@code dataset} at {@code indices}, in that order (repeats allowed).
     *
     * @throws IndexOutOfBoundsException naming the first index outside the dataset and its position
     */
    public static <T> SubsetDataset<T> subset(Dataset<T> dataset, long[] indices) {
        Objects.requireNonNull(dataset, "dataset");
        long size = dataset.size();
        long[] copy = indices.clone();
        for (int i = 0; i < copy.length; i++) {
            if (copy[i] < 0 || copy[i] >= size) {
                throw new IndexOutOfBoundsException("subset of " + dataset.name() + ": index " + copy[i]
                        + " (at position " + i + ") is outside [0, " + size + ")");
            }
        }
        return SubsetDataset.of(dataset, copy);
    }

    /** {@code datasets} one after another; see {@link ConcatDataset}. */
    @SafeVarargs
    public static <T> ConcatDataset<T> concat(Dataset<? extends T>... datasets) {
        return concat(Arrays.asList(datasets));
    }

    /** {@code datasets} one after another; see {@link ConcatDataset}. */
    public static <T> ConcatDataset<T> concat(List<? extends Dataset<? extends T>> datasets) {
        for (int k = 0; k < datasets.size(); k++) {
            Objects.requireNonNull(datasets.get(k), "dataset " + k + " of the concatenation");
        }
        return ConcatDataset.of(datasets);
    }

    /**
     * {@code dataset} with {@code function} applied to each sample, on fetch. The function runs
     * in worker threads and must be thread-safe.
     */
    public static <T, R> MappedDataset<T, R> map(Dataset<T> dataset, Function<? super T, ? extends R> function) {
        return new MappedDataset<>(dataset, function);
    }

    /**
     * Splits {@code dataset} into disjoint random subsets that together hold every sample once:
     * PyTorch's {@code random_split}. As there, {@code fractionsOrLengths} are fractions when they
     * sum to 1 (within 1e-9) and to no more than the dataset's size: each split then gets
     * {@code floor(size * fraction)} samples and the remainder is dealt one by one, round-robin,
     * from the first split on. Otherwise they are lengths, whole numbers that must sum to the
     * size. The permutation is a pure function of {@code seed}: the same seed gives the same
     * splits, always. It is a {@link FeistelPermutation}, so the splits hold no index arrays and
     * a dataset of any size can be split.
     *
     * <pre>{@code
     * randomSplit(ds10, new double[] {0.5, 0.3, 0.2}, 1);   // sizes 5, 3, 2
     * randomSplit(ds10, new double[] {0.33, 0.33, 0.34}, 1); // floor: 3, 3, 3; remainder 1 -> 4, 3, 3
     * randomSplit(ds10, new double[] {7, 3}, 1);             // lengths 7, 3
     * }</pre>
     *
     * @throws IllegalArgumentException when a fraction is outside [0, 1], a length is negative or
     *     not whole, or the lengths do not sum to the dataset's size
     */
    public static <T> List<SubsetDataset<T>> randomSplit(Dataset<T> dataset, double[] fractionsOrLengths, long seed) {
        Objects.requireNonNull(dataset, "dataset");
        if (fractionsOrLengths.length == 0) {
            throw new IllegalArgumentException("randomSplit needs at least one fraction or length");
        }
        long size = dataset.size();
        double sum = 0;
        for (double f : fractionsOrLengths) {
            sum += f;
        }
        long[] lengths = new long[fractionsOrLengths.length];
        if (Math.abs(sum - 1) <= SUM_TOLERANCE * Math.max(1, Math.abs(sum)) && sum <= size) {
            long taken = 0;
            for (int i = 0; i < lengths.length; i++) {
                double f = fractionsOrLengths[i];
                if (!(f >= 0 && f <= 1)) {
                    throw new IllegalArgumentException("fraction " + i + " (" + f + ") is not between 0 and 1");
                }
                lengths[i] = (long) Math.floor(size * f);
                taken += lengths[i];
            }
            for (long r = 0; r < size - taken; r++) {
                lengths[(int) (r % lengths.length)]++;
            }
        } else {
            for (int i = 0; i < lengths.length; i++) {
                double v = fractionsOrLengths[i];
                if (!(v >= 0) || v != Math.rint(v) || v > Long.MAX_VALUE) {
                    throw new IllegalArgumentException("split " + i + " is " + v + ": the values " + Arrays.toString(
                            fractionsOrLengths) + " are neither fractions summing to 1 nor whole lengths");
                }
                lengths[i] = (long) v;
            }
        }
        return randomSplit(dataset, lengths, seed);
    }

    /**
     * Splits {@code dataset} into disjoint random subsets of the given lengths, which must sum to
     * its size; see {@link #randomSplit(Dataset, double[], long)}.
     */
    public static <T> List<SubsetDataset<T>> randomSplit(Dataset<T> dataset, long[] lengths, long seed) {
        Objects.requireNonNull(dataset, "dataset");
        long size = dataset.size();
        long total = 0;
        for (int i = 0; i < lengths.length; i++) {
            if (lengths[i] < 0) {
                throw new IllegalArgumentException("split " + i + " has a negative length " + lengths[i]);
            }
            total += lengths[i];
            if (total < 0) {
                throw new IllegalArgumentException("the lengths " + Arrays.toString(lengths) + " sum past 2^63");
            }
        }
        if (total != size) {
            throw new IllegalArgumentException("the lengths " + Arrays.toString(lengths) + " sum to " + total
                    + ", not to the size of " + dataset.name() + " (" + size + ")");
        }
        // Split k is a range of positions of one seeded permutation: disjoint, complete, and no
        // memory per sample. The key is salted so that it differs from the samplers' keys for the
        // same seed: a split and a shuffle seeded alike must not be correlated.
        FeistelPermutation order = new FeistelPermutation(size, Seeds.splitMix(Seeds.mix64(seed), SPLIT_SALT));
        List<SubsetDataset<T>> out = new ArrayList<>(lengths.length);
        long from = 0;
        for (long length : lengths) {
            out.add(SubsetDataset.of(dataset, order, from, length));
            from += length;
        }
        return List.copyOf(out);
    }
}
