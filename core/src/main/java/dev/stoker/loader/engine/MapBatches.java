package dev.stoker.loader.engine;

import dev.stoker.data.Dataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.loader.Batch;
import dev.stoker.sampler.BatchSampler;
import java.util.Iterator;

/**
 * What the passes of a map-style source read their batches through: the batch sampler's index
 * batches of an epoch, and the recipe that makes each one, timed and under the batch's seeded
 * generator. Shared by the passes of both engines; its one state is whether the samples draw from the
 * batch's generator ({@link #helpFor}).
 */
final class MapBatches<T> {
    private final Dataset<T> dataset;
    private final BatchSampler batchSampler;
    private final MapRecipe<T> recipe;
    private final LoaderSettings settings;
    /** Whether a shared batch's samples drew from the batch's generator: then no batch is shared again. */
    private volatile boolean drawsFromBatchGenerator;

    MapBatches(Dataset<T> dataset, BatchSampler batchSampler, MapRecipe<T> recipe, LoaderSettings settings) {
        this.dataset = dataset;
        this.batchSampler = batchSampler;
        this.recipe = recipe;
        this.settings = settings;
    }

    LoaderSettings settings() {
        return settings;
    }

    /** The dataset as given to the loader (not as the I/O mode sees it). */
    Dataset<T> dataset() {
        return dataset;
    }

    BatchSampler batchSampler() {
        return batchSampler;
    }

    MapRecipe<T> recipe() {
        return recipe;
    }

    /**
     * A pass's index batches, those {@code plan} leaves, each told to the dataset
     * ({@link Dataset#willNeed}) {@code lookahead} batches before it is made.
     */
    Iterator<long[]> of(long epoch, BatchPlan plan) {
        return Lookahead.of(plan.remaining(batchSampler.iterator(epoch)), settings.lookahead(), indices -> {
            try {
                dataset.willNeed(indices);
            } catch (RuntimeException e) {
                // a hint: what it would have started is done, and reported, when the batch is made
            }
        });
    }

    /**
     * Batch {@code k} of {@code epoch}, made in {@code context} with the batch's generator, its
     * samples shared out through {@code help} when that is open; null when all of it was skipped.
     */
    Batch make(BatchMaker maker, WorkerContext context, long epoch, long k, long[] indices, BatchHelp help) {
        if (help.isOpen()) { // the pass's first batch: help learns whether its first sample draws
            return maker.timed(epoch, k, context, context.batchRandomSeed(k),
                    () -> recipe.make(maker, epoch, k, indices, help), help::ownerDrew);
        }
        return maker.timed(epoch, k, context, context.batchRandomSeed(k),
                () -> recipe.make(maker, epoch, k, indices, help));
    }

    /**
     * The sharing of a worker pass's first batches ({@link FirstBatches}), or none: with one
     * worker, when the recipe makes a batch in one call, or once a batch of this loader turned out
     * to draw from its generator, whose draws only one thread making the samples in order gives
     * them (its samples would be made twice each pass).
     */
    FirstBatches helpFor(int workers, BatchMaker maker) {
        return workers > 1 && recipe.sharesSamples(maker) && !drawsFromBatchGenerator
                ? FirstBatches.forPass(workers, () -> drawsFromBatchGenerator = true) : FirstBatches.NONE;
    }
}
