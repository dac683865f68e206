package dev.stoker.data;

import dev.stoker.random.Seeds;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Several streaming datasets interleaved at random in set proportions: WebDataset's
 * {@code RandomMix}, torchdata's {@code SampleMultiplexer}. Each worker opens every source with its
 * own context (so each source deals its data out to the workers as it always does) and draws,
 * for each sample it yields, the source it comes from, with probability proportional to the
 * sources' weights. Each source's samples keep their own order.
 *
 * <p>The draws are a pure function of (seed, epoch, global worker, position): draw {@code i} of a
 * worker is {@code u = unit(splitMix(mix(seed, epoch, MIX_STREAM, globalWorker), i))}, and picks the
 * source where {@code u·W} falls among the cumulative weights of the sources still open. That is
 * what lets a resumed loader put the mixture back where it stood: {@link SampleStream#skip} works
 * out from the draws how far each source got and skips each source by that much, reading none of
 * the mixture's samples.
 *
 * <p>When a drawn source has no more samples, the stream ends ({@link Until#FIRST_ENDS}, the
 * default, as {@code RandomMix} does), or that source drops out and the same draw picks among the
 * others, until every source with a weight has ended ({@link Until#ALL_END}).
 *
 * <pre>{@code
 * StreamingDataset<TarSample> web = TarShardDataset.builder("web-{000000..000999}.tar").build();
 * StreamingDataset<TarSample> books = TarShardDataset.builder("books-{000..099}.tar").build();
 * MixedStreamingDataset<TarSample> mix = MixedStreamingDataset.of(List.of(web, books), 0.8, 0.2);
 * DataLoader.builder(JpegStream.of(mix, s -> new EncodedImage(s.segment("jpg"), 0, s.key()), pipeline))
 *         .batchSize(64).build();
 * }</pre>
 *
 * @param <T> what the sources yield
 */
public final class MixedStreamingDataset<T> implements StreamingDataset<T> {
    /** The word that keeps the mixture's draws apart from the other streams drawn from (seed, epoch). */
    public static final long MIX_STREAM = 0x6D69_7853_7472_6561L; // "mixStrea"

    /** When the mixture ends. */
    public enum Until {
        /** When a drawn source has no more samples: every stretch keeps the proportions. */
        FIRST_ENDS,
        /** When every source with a weight above 0 has ended: every sample is read once. */
        ALL_END
    }

    private final List<StreamingDataset<? extends T>> sources;
    private final double[] weights;
    private final Until until;

    private MixedStreamingDataset(List<? extends StreamingDataset<? extends T>> sources, double[] weights,
                                  Until until) {
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("a mixture needs at least one source");
        }
        if (weights.length != sources.size()) {
            throw new IllegalArgumentException("the mixture has " + sources.size() + " sources but "
                    + weights.length + " weights: give one weight per source");
        }
        double sum = 0;
        for (int k = 0; k < weights.length; k++) {
            if (!(weights[k] >= 0) || !Double.isFinite(weights[k])) {
                throw new IllegalArgumentException("weight " + k + " (" + sources.get(k).name() + ") is "
                        + weights[k] + "; weights must be finite and >= 0");
            }
            sum += weights[k];
        }
        if (!(sum > 0) || !Double.isFinite(sum)) {
            throw new IllegalArgumentException("the weights add up to " + sum + ": at least one must be above 0");
        }
        this.sources = List.copyOf(sources);
        this.weights = weights.clone();
        this.until = until;
    }

    /** The sources mixed in proportion to {@code weights}, ending when a drawn source ends. */
    public static <T> MixedStreamingDataset<T> of(List<? extends StreamingDataset<? extends T>> sources,
                                                  double... weights) {
        return new MixedStreamingDataset<>(sources, weights, Until.FIRST_ENDS);
    }

    /**
     * Fillable sources mixed in proportion to {@code weights}, keeping the fill path: see
     * {@link FillableMixedStreamingDataset}.
     *
     * @throws IllegalArgumentException for bad weights, or sources that fill different layouts
     */
    public static <T> FillableMixedStreamingDataset<T> fillable(List<? extends FillableStreamingDataset<T>> sources,
                                                                double... weights) {
        return new FillableMixedStreamingDataset<>(sources, of(sources, weights));
    }

    /** The same mixture, ending as {@code until} says. */
    public MixedStreamingDataset<T> until(Until until) {
        return new MixedStreamingDataset<>(sources, weights, until);
    }

    public List<StreamingDataset<? extends T>> sources() {
        return sources;
    }

    /** The weights; a copy. */
    public double[] weights() {
        return weights.clone();
    }

    public Until endsWhen() {
        return until;
    }

    @Override
    public SampleStream<T> open(WorkerContext context) {
        List<SampleStream<? extends T>> opened = new ArrayList<>(sources.size());
        try {
            for (int k = 0; k < sources.size(); k++) {
                // A source nobody draws from is not opened: its files stay shut.
                opened.add(weights[k] > 0 ? sources.get(k).open(context) : null);
            }
        } catch (RuntimeException | Error e) {
            for (SampleStream<? extends T> s : opened) {
                if (s != null) {
                    try {
                        s.close();
                    } catch (RuntimeException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
            }
            throw e;
        }
        long draws = Seeds.mix(context.seed(), context.epoch(), MIX_STREAM, context.globalWorkerId());
        return new MixedStream<>(opened, weights, until, draws);
    }

    @Override
    public String name() {
        return "mix of (" + sources.stream().map(StreamingDataset::name).collect(Collectors.joining(", ")) + ")";
    }

    @Override
    public String toString() {
        return name() + " with weights " + java.util.Arrays.toString(weights) + " until " + until;
    }
}
