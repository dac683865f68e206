package dev.stoker.loader.engine;

import dev.stoker.collate.Collate;
import dev.stoker.collate.DefaultCollate;
import dev.stoker.data.FillableStreamingDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.StreamingDataset;
import dev.stoker.loader.Batch;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a batch of a streaming dataset is made from the samples its stream yielded: collated
 * ({@link Collating}), or, for a {@link FillableStreamingDataset} under the default collate, each
 * sample written into the next row of the batch ({@link Filling}). Chosen once, when the loader
 * is built, by the dataset's type and whether a collate was given.
 */
public sealed interface StreamRecipe<T> {

    /**
     * Batch {@code k} of {@code epoch} from {@code samples}; {@code null} when every sample's fill
     * failed under {@link SamplePolicy#SKIP}. {@code fetchStart} is when the read of the samples
     * began: the fetch span starts there.
     */
    Batch make(BatchMaker maker, long epoch, long k, List<T> samples, long fetchStart);

    /** The layout batches are filled by; empty on the collate path. */
    Optional<SampleLayout> fillLayout();

    /** The recipe of a loader given no collate: the fill path for a fillable stream, else {@link DefaultCollate}. */
    static <T> StreamRecipe<T> byDefault(StreamingDataset<T> dataset) {
        if (dataset instanceof FillableStreamingDataset<T> f) {
            return new Filling<>(f, Objects.requireNonNull(f.layout(),
                    () -> "dataset '" + dataset.name() + "' is fillable but its layout() is null"));
        }
        return new Collating<>(DefaultCollate.instance()::collate);
    }

    /** The samples collated by {@code collate}. */
    record Collating<T>(Collate<T> collate) implements StreamRecipe<T> {
        @Override
        public Batch make(BatchMaker maker, long epoch, long k, List<T> samples, long fetchStart) {
            return maker.collated(collate, epoch, k, new long[0], samples, fetchStart);
        }

        @Override
        public Optional<SampleLayout> fillLayout() {
            return Optional.empty();
        }
    }

    /**
     * The fill path: the layout's tensors from the pool, each sample written into the next row;
     * under {@link SamplePolicy#SKIP} a sample whose fill fails is left out and its row written
     * again by the next one.
     */
    record Filling<T>(FillableStreamingDataset<T> dataset, SampleLayout layout) implements StreamRecipe<T> {
        @Override
        public Batch make(BatchMaker maker, long epoch, long k, List<T> samples, long fetchStart) {
            int n = samples.size();
            return maker.filled(layout, epoch, k, new long[0], n, fetchStart, slots -> {
                int rows = 0;
                for (int j = 0; j < n; j++) {
                    try {
                        dataset.fill(samples.get(j), slots.slot(rows));
                        rows++;
                    } catch (Error e) { // no bad sample: reported, never skipped
                        throw maker.failure("filling " + BatchMaker.fieldOf(slots) + "sample " + j + " of", epoch, k,
                                new long[0], -1, e);
                    } catch (RuntimeException e) {
                        if (maker.skips() == null || Thread.currentThread().isInterrupted()) {
                            throw maker.failure("filling " + BatchMaker.fieldOf(slots) + "sample " + j + " of", epoch,
                                    k, new long[0], -1, e);
                        }
                        maker.skips().skip(epoch, k, -1, e); // its position in the stream is not known here: -1
                    }
                }
                return new BatchMaker.Rows(rows, new long[0]);
            });
        }

        @Override
        public Optional<SampleLayout> fillLayout() {
            return Optional.of(layout);
        }
    }
}
