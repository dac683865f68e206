package dev.stoker.loader.engine;

import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.loader.Batch;
import dev.stoker.loader.StreamState;
import java.util.List;
import java.util.function.Supplier;

/**
 * What the passes of a streaming source read their batches through: each worker's stream,
 * opened where its {@link StreamState} stands, and the recipe that makes a batch of the samples
 * read, timed and under the batch's seeded generator. Shared by the passes of both engines;
 * holds no state of its own.
 */
final class StreamBatches<T> {
    private final StreamingDataset<T> dataset;
    private final StreamRecipe<T> recipe;
    private final LoaderSettings settings;

    StreamBatches(StreamingDataset<T> dataset, StreamRecipe<T> recipe, LoaderSettings settings) {
        this.dataset = dataset;
        this.recipe = recipe;
        this.settings = settings;
    }

    LoaderSettings settings() {
        return settings;
    }

    StreamingDataset<T> dataset() {
        return dataset;
    }

    StreamRecipe<T> recipe() {
        return recipe;
    }

    /** Worker {@code w}'s stream, opened with {@code context} where {@code start} stands; see {@link StreamOpening}. */
    SampleStream<T> open(WorkerContext context, StreamState start, int w) {
        return StreamOpening.open(dataset, context, start, w);
    }

    /**
     * Runs {@code action}, the reading and making of batch {@code k} of {@code epoch}, timed and
     * under the batch's generator in {@code context}, so that the read and the fill draw from one
     * stream of it.
     */
    <R> R timed(BatchMaker maker, WorkerContext context, long epoch, long k, Supplier<R> action) {
        return maker.timed(epoch, k, context, context.streamRandomSeed(k), action);
    }

    /** Batch {@code k} of {@code epoch} from the samples read; null when every sample's fill was skipped. */
    Batch make(BatchMaker maker, long epoch, long k, List<T> samples, long fetchStart) {
        return recipe.make(maker, epoch, k, samples, fetchStart);
    }
}
