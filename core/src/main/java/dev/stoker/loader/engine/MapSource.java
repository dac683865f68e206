package dev.stoker.loader.engine;

import dev.stoker.data.Dataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.WorkerContext;
import dev.stoker.loader.Batch;
import dev.stoker.loader.LoaderState;
import dev.stoker.sampler.BatchSampler;
import java.time.Duration;
import java.util.Iterator;
import java.util.Optional;

/**
 * A map-style dataset read by index: the batch sampler's index batches of each epoch, made by
 * the {@link MapRecipe}. Where the loader stands is which batches of the epoch the consumer has
 * received ({@link DeliveryLog}); a restored state becomes a {@link BatchPlan} of the batches it
 * had not delivered, so that the order of an epoch stays a pure function of the seed and the
 * epoch, whatever the number of workers before and after.
 */
public final class MapSource<T> implements Source<T> {
    private final Dataset<T> dataset;
    private final BatchSampler batchSampler;
    private final MapRecipe<T> recipe;
    private final LoaderSettings settings;
    /** What the next pass makes: the whole epoch, or what a restored state had not delivered. */
    private BatchPlan next = BatchPlan.WHOLE_EPOCH;
    /** What the last pass started has delivered; null before the first. */
    private DeliveryLog log;

    public MapSource(Dataset<T> dataset, BatchSampler batchSampler, MapRecipe<T> recipe, LoaderSettings settings) {
        this.dataset = dataset;
        this.batchSampler = batchSampler;
        this.recipe = recipe;
        this.settings = settings;
    }

    @Override
    public String name() {
        return settings.datasetName();
    }

    LoaderSettings settings() {
        return settings;
    }

    @Override
    public BatchSource serialPass(long epoch, BatchMaker maker) {
        BatchPlan plan = takePlan();
        return new SerialMapPass<>(this, maker, epoch, plan, log);
    }

    @Override
    public WorkerPass<T> workerPass(long epoch, BatchMaker maker, WorkerCrew crew, boolean ownsCrew, Duration grace) {
        BatchPlan plan = takePlan();
        return new MapWorkerPass<>(this, maker, epoch, plan, log, crew, ownsCrew, grace);
    }

    private BatchPlan takePlan() {
        BatchPlan plan = next;
        next = BatchPlan.WHOLE_EPOCH;
        log = plan.newLog();
        return plan;
    }

    /** A pass's index batches, those {@code plan} leaves, each told to the dataset {@code lookahead} batches before it is made. */
    Iterator<long[]> batches(long epoch, BatchPlan plan) {
        return Lookahead.of(plan.remaining(batchSampler.iterator(epoch)), settings.lookahead(), indices -> {
            try {
                dataset.willNeed(indices);
            } catch (RuntimeException e) {
                // a hint: what it would have started is done, and reported, when the batch is made
            }
        });
    }

    /** Batch {@code k} of {@code epoch}, made in {@code context} with the batch's generator; null when all of it was skipped. */
    Batch make(BatchMaker maker, WorkerContext context, long epoch, long k, long[] indices) {
        return maker.timed(epoch, k, context, context.batchRandomSeed(k), () -> recipe.make(maker, epoch, k, indices));
    }

    @Override
    public LoaderState pendingState(long epoch) {
        return stateOf(epoch, next.newLog());
    }

    @Override
    public LoaderState passState(long epoch, boolean ranToEnd) {
        return stateOf(epoch, log); // a pass that ran to its end delivered every batch: its log says so
    }

    private LoaderState stateOf(long epoch, DeliveryLog delivered) {
        long perEpoch = batchesPerEpoch();
        long size = dataset.size();
        long prefix = delivered.prefix();
        if (prefix >= perEpoch) {
            return new LoaderState(epoch + 1, 0, new long[0], settings.seed(), size, perEpoch);
        }
        return new LoaderState(epoch, prefix, delivered.ahead(), settings.seed(), size, perEpoch);
    }

    @Override
    public void restore(LoaderState state) {
        if (state.streams() != null) {
            throw new IllegalArgumentException("this state is from a loader of a streaming dataset: " + state
                    + "; this loader reads the map-style " + name());
        }
        long size = dataset.size();
        long perEpoch = batchesPerEpoch();
        if (state.datasetSize() != size || state.seed() != settings.seed() || state.batchesPerEpoch() != perEpoch) {
            throw new IllegalArgumentException("this state is from another loader: " + state + "; this loader reads "
                    + size + " samples of " + name() + " in " + perEpoch + " batches per epoch with seed "
                    + settings.seed());
        }
        next = new BatchPlan(state.nextBatch(), state.deliveredAhead());
    }

    @Override
    public void rewind() {
        next = BatchPlan.WHOLE_EPOCH;
    }

    @Override
    public long batchesPerEpoch() {
        return batchSampler.size();
    }

    @Override
    public Optional<SampleLayout> fillLayout() {
        return recipe.fillLayout();
    }

    @Override
    public String describe() {
        return batchSampler.toString();
    }
}
