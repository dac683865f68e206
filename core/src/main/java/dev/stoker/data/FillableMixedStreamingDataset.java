package dev.stoker.data;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link MixedStreamingDataset} of fillable streams that keeps the fill path: each sample
 * remembers the source it was drawn from ({@link MixedSample}), and that source's own
 * {@code fill} writes it into the batch. So two image streams with pipelines of their own (heavy
 * augmentation for one, light for the other) mix without a per-sample tensor or a collate. The
 * sources must share one {@link SampleLayout}; the draws, the ends and the resume are the
 * mixture's.
 *
 * <pre>{@code
 * FillableMixedStreamingDataset<EncodedImage> mix = MixedStreamingDataset.fillable(
 *         List.of(JpegStream.of(web, toImage, ImagePipeline.train(224)),
 *                 JpegStream.of(curated, toImage, lightPipeline)), 0.7, 0.3);
 * DataLoader.builder(mix).batchSize(64).numWorkers(4).build();   // {image, label}, filled in place
 * }</pre>
 *
 * @param <T> what the sources yield
 */
public final class FillableMixedStreamingDataset<T> implements FillableStreamingDataset<MixedSample<T>> {
    private final List<FillableStreamingDataset<T>> sources;
    private final MixedStreamingDataset<T> mixture;
    private final SampleLayout layout;

    FillableMixedStreamingDataset(List<? extends FillableStreamingDataset<T>> sources, MixedStreamingDataset<T> mixture) {
        this.sources = new ArrayList<>(sources);
        this.mixture = mixture;
        this.layout = sources.getFirst().layout();
        for (int k = 1; k < sources.size(); k++) {
            if (!sources.get(k).layout().equals(layout)) {
                throw new IllegalArgumentException("source " + k + " (" + sources.get(k).name() + ") fills "
                        + sources.get(k).layout() + " but source 0 (" + sources.getFirst().name() + ") fills " + layout
                        + ": the sources of a fillable mixture fill one layout");
            }
        }
    }

    /** The same sources and weights, ending as {@code until} says. */
    public FillableMixedStreamingDataset<T> until(MixedStreamingDataset.Until until) {
        return new FillableMixedStreamingDataset<>(sources, mixture.until(until));
    }

    @Override
    public SampleStream<MixedSample<T>> open(WorkerContext context) {
        MixedStream<T> in = (MixedStream<T>) mixture.open(context);
        // in.next() has drawn the source by the time the view sees the sample
        return SampleStreams.timedReads(in, sample -> new MixedSample<>(in.lastSource(), sample));
    }

    @Override
    public SampleLayout layout() {
        return layout;
    }

    @Override
    public void fill(MixedSample<T> sample, SampleSlot slot) {
        sources.get(sample.source()).fill(sample.sample(), slot);
    }

    @Override
    public String name() {
        return mixture.name();
    }
}
