package dev.stoker.loader.engine;

import dev.stoker.collate.Collate;
import dev.stoker.collate.DefaultCollate;
import dev.stoker.data.Dataset;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.loader.Batch;
import java.util.Objects;
import java.util.Optional;

/**
 * How a batch of a map-style dataset is made from its indices: the samples fetched and collated
 * ({@link SampleFetch}), or, for a {@link FillableDataset} under the default collate, every sample
 * written into its row of the batch ({@link RowFill}). Chosen once, when the loader is built, by
 * the dataset's type and whether a collate was given.
 */
public sealed interface MapRecipe<T> permits SampleFetch, RowFill {

    /**
     * Batch {@code k} of {@code epoch}: the samples at {@code indices}, less those skipped under
     * {@link SamplePolicy#SKIP}; {@code null} when every one of them was. With {@code help} (a
     * pass's first batch) the samples are made by every worker that comes to help, when the
     * recipe makes them one call per sample; the batch is the same.
     */
    Batch make(BatchMaker maker, long epoch, long k, long[] indices, BatchHelp help);

    /**
     * Whether {@link #make} shares out the samples of a batch given help: when it makes them one
     * call per sample and, under {@link SamplePolicy#SKIP}, never (a skipped sample moves the
     * rows after it).
     */
    boolean sharesSamples(BatchMaker maker);

    /** The dataset as the recipe reads it (seen through the I/O mode when that is on). */
    Dataset<T> dataset();

    /** The layout batches are filled by; empty on the collate path. */
    Optional<SampleLayout> fillLayout();

    /**
     * The recipe of a loader given no collate: the fill path for a fillable dataset, else the
     * samples collated by {@link DefaultCollate}. See {@link #seenThroughIo} for the I/O mode.
     */
    static <T> MapRecipe<T> byDefault(Dataset<T> dataset, int ioConcurrency) {
        // A fillable dataset with its own fillBatch fills its rows itself, one call per batch:
        // the I/O mode has nothing to overlap there, and wrapping it for its getBatch would
        // quietly trade its fill path for collating.
        Dataset<T> fetched = dataset instanceof FillableDataset<T> f && DefaultLoops.overridesFillBatch(f)
                ? dataset
                : seenThroughIo(dataset, ioConcurrency);
        if (fetched instanceof FillableDataset<T> f) {
            SampleLayout layout = Objects.requireNonNull(f.layout(),
                    () -> "dataset '" + dataset.name() + "' is fillable but its layout() is null");
            return new RowFill<>(f, layout, !DefaultLoops.overridesFillBatch(f));
        }
        return collating(fetched, DefaultCollate.instance()::collate);
    }

    /** The recipe of a loader given {@code collate}, which turns the fill path off. */
    static <T> MapRecipe<T> collating(Dataset<T> dataset, Collate<T> collate, int ioConcurrency) {
        return collating(seenThroughIo(dataset, ioConcurrency), collate);
    }

    private static <T> MapRecipe<T> collating(Dataset<T> fetched, Collate<T> collate) {
        return new SampleFetch<>(fetched, collate, !DefaultLoops.overridesGetBatch(fetched));
    }

    /**
     * The dataset as the I/O mode ({@code ioConcurrency > 0}) sees it: a fillable dataset that
     * keeps the default {@code fillBatch} has the rows of a batch filled at once (and its samples
     * fetched at once on the collate path); any other that keeps the default {@code getBatch} has
     * its samples fetched at once. A dataset with its own batched call is left as it is.
     */
    private static <T> Dataset<T> seenThroughIo(Dataset<T> dataset, int ioConcurrency) {
        if (ioConcurrency > 0 && dataset instanceof FillableDataset<T> f && !DefaultLoops.overridesFillBatch(f)) {
            return new ConcurrentFillDataset<>(f, ioConcurrency);
        }
        if (ioConcurrency > 0 && !DefaultLoops.overridesGetBatch(dataset)) {
            return new ConcurrentFetchDataset<>(dataset, ioConcurrency);
        }
        return dataset;
    }
}
