package dev.stoker.loader.engine;

import dev.stoker.data.Dataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.loader.LoaderState;
import dev.stoker.sampler.BatchSampler;
import java.time.Duration;
import java.util.Optional;

/**
 * A map-style dataset read by index: the batch sampler's index batches of each epoch, made by
 * the {@link MapRecipe}. Where the loader stands is which batches of the epoch the consumer has
 * received ({@link DeliveryLog}); a restored state becomes a {@link BatchPlan} of the batches it
 * had not delivered, so that the order of an epoch stays a pure function of the seed and the
 * epoch, whatever the number of workers before and after.
 */
public final class MapSource<T> implements Source<T> {
    private final MapBatches<T> batches;
    private final LoaderSettings settings;
    /** What the next pass makes: the whole epoch, or what a restored state had not delivered. */
    private BatchPlan next = BatchPlan.WHOLE_EPOCH;
    /** What the last pass started has delivered; null before the first. */
    private DeliveryLog log;

    public MapSource(Dataset<T> dataset, BatchSampler batchSampler, MapRecipe<T> recipe, LoaderSettings settings) {
        this.batches = new MapBatches<>(dataset, batchSampler, recipe, settings);
        this.settings = settings;
    }

    @Override
    public String name() {
        return settings.datasetName();
    }

    @Override
    public BatchSource serialPass(long epoch, BatchMaker maker) {
        BatchPlan plan = takePlan();
        return new SerialMapPass<>(batches, maker, epoch, plan, log);
    }

    @Override
    public WorkerPass<T> workerPass(long epoch, BatchMaker maker, WorkerCrew crew, boolean ownsCrew, Duration grace) {
        BatchPlan plan = takePlan();
        return new MapWorkerPass<>(batches, maker, epoch, plan, log, crew, ownsCrew, grace);
    }

    private BatchPlan takePlan() {
        BatchPlan plan = next;
        next = BatchPlan.WHOLE_EPOCH;
        log = plan.newLog();
        return plan;
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
        long size = batches.dataset().size();
        long prefix = delivered.prefix();
        BatchSampler sampler = batches.batchSampler();
        if (prefix >= perEpoch) {
            return LoaderState.ofMap(epoch + 1, 0, new long[0], settings.seed(), size, perEpoch, sampler.rank(),
                    sampler.worldSize());
        }
        return LoaderState.ofMap(epoch, prefix, delivered.ahead(), settings.seed(), size, perEpoch, sampler.rank(),
                sampler.worldSize());
    }

    @Override
    public void restore(LoaderState state) {
        if (state.streams() != null) {
            throw new IllegalArgumentException("this state is from a loader of a streaming dataset: " + state
                    + "; this loader reads the map-style " + name());
        }
        long size = batches.dataset().size();
        long perEpoch = batchesPerEpoch();
        if (state.datasetSize() != size || state.seed() != settings.seed() || state.batchesPerEpoch() != perEpoch) {
            throw new IllegalArgumentException("this state is from another loader: " + state + "; this loader reads "
                    + size + " samples of " + name() + " in " + perEpoch + " batches per epoch with seed "
                    + settings.seed());
        }
        BatchSampler sampler = batches.batchSampler();
        // Another world size: same sizes, other shares, so batch g here is other samples than the state's
        // batch g. Another rank of the same world is the usual checkpoint of rank 0 restored on every rank
        // (PyTorch jobs save one): in a lockstep job every rank stands at the same batch, so that is exact,
        // unless batches went out of order, which differ from rank to rank.
        boolean otherWorld = state.worldSize() != sampler.worldSize();
        boolean otherRankAhead = state.rank() != sampler.rank() && state.deliveredAhead().length > 0;
        if (state.worldSize() != 0 && !sampler.elastic() && (otherWorld || otherRankAhead)) {
            throw new IllegalArgumentException("this state was taken by rank " + state.rank() + " of a world of "
                    + state.worldSize() + ", and this loader is rank " + sampler.rank() + " of " + sampler.worldSize()
                    + " (its batch sampler " + describe() + "): its batches are other samples, so going on from"
                    + " this state would skip some and repeat others. Restore each rank's own state on a job of the"
                    + " same world size; to go on with another number of ranks, batch with an ElasticBatchSampler"
                    + (otherWorld ? "" : " (another rank's state restores here only when it delivered no batch"
                            + " out of order)"));
        }
        next = new BatchPlan(state.nextBatch(), state.deliveredAhead());
    }

    @Override
    public void rewind() {
        next = BatchPlan.WHOLE_EPOCH;
    }

    @Override
    public long batchesPerEpoch() {
        return batches.batchSampler().size();
    }

    @Override
    public Optional<SampleLayout> fillLayout() {
        return batches.recipe().fillLayout();
    }

    @Override
    public Optional<IoLimit> ioLimit() {
        return batches.recipe().dataset() instanceof ConcurrentFetchDataset<T> io ? Optional.of(io.limit())
                : Optional.empty();
    }

    @Override
    public String describe() {
        return batches.batchSampler().toString();
    }
}
