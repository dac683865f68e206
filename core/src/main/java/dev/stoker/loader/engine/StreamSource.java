package dev.stoker.loader.engine;

import dev.stoker.data.ReshardableStreamingDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.StreamingDataset;
import dev.stoker.loader.LoaderState;
import dev.stoker.loader.StreamState;
import java.time.Duration;
import java.util.Optional;

/**
 * A streaming dataset read in order: each worker (or the consumer's thread) opens its own stream
 * and makes batches of consecutive samples, by the {@link StreamRecipe}. Where the loader stands
 * is where each stream stands ({@link StreamState}, kept up to date by the pass's
 * {@link StreamLog}); a restored state reopens the streams there, on the same layout, or deals
 * what is left of the epoch out again when the dataset can be resharded.
 */
public final class StreamSource<T> implements Source<T> {
    private final StreamingDataset<T> dataset;
    private final StreamBatches<T> batches;
    private final LoaderSettings settings;
    /** Where the next pass's streams start: the start of the epoch, or a restored state. */
    private StreamState next;
    /** What the last pass started has delivered; null before the first. */
    private StreamLog log;

    public StreamSource(StreamingDataset<T> dataset, StreamRecipe<T> recipe, LoaderSettings settings) {
        this.dataset = dataset;
        this.batches = new StreamBatches<>(dataset, recipe, settings);
        this.settings = settings;
        this.next = fresh();
    }

    @Override
    public String name() {
        return settings.datasetName();
    }

    @Override
    public BatchSource serialPass(long epoch, BatchMaker maker) {
        return new SerialStreamPass<>(batches, maker, epoch, takeLog());
    }

    @Override
    public WorkerPass<T> workerPass(long epoch, BatchMaker maker, WorkerCrew crew, boolean ownsCrew, Duration grace) {
        return new StreamWorkerPass<>(batches, maker, epoch, takeLog(), crew, ownsCrew, grace);
    }

    private StreamLog takeLog() {
        log = new StreamLog(next);
        next = fresh();
        return log;
    }

    @Override
    public LoaderState pendingState(long epoch) {
        return ofStreams(epoch, next);
    }

    @Override
    public LoaderState passState(long epoch, boolean ranToEnd) {
        return ranToEnd ? ofStreams(epoch + 1, fresh()) : ofStreams(epoch, log.snapshot());
    }

    private LoaderState ofStreams(long epoch, StreamState streams) {
        return new LoaderState(epoch, streams.delivered(), new long[0], settings.seed(), -1, -1, streams);
    }

    /** The streams of a pass from the start of an epoch: one per worker, one without workers. */
    private StreamState fresh() {
        return streamsFrom(null);
    }

    private StreamState streamsFrom(long[] cursor) {
        int n = Math.max(1, settings.numWorkers());
        return new StreamState(settings.rank(), settings.worldSize(), settings.batchSize(), 0, 0, new long[n],
                new long[n], new boolean[n], cursor);
    }

    @Override
    public void restore(LoaderState state) {
        StreamState s = state.streams();
        if (s == null) {
            throw new IllegalArgumentException("this state is from a loader of a map-style dataset: " + state
                    + "; this loader reads the streaming " + name());
        }
        StreamState mine = fresh();
        boolean sameLayout = s.streams() == mine.streams() && s.rank() == mine.rank()
                && s.worldSize() == mine.worldSize();
        if (state.seed() != settings.seed() || s.batchSize() != mine.batchSize()) {
            throw new IllegalArgumentException("this state is from another loader: " + state + "; this loader reads "
                    + name() + " with batch size " + mine.batchSize() + " and seed " + settings.seed());
        }
        if (s.start() != null) {
            checkCursor(s.start());
        }
        next = sameLayout ? s : reshard(state, mine);
    }

    /** Refuses a state whose streams started from a cursor this loader's dataset cannot take. */
    private void checkCursor(long[] cursor) {
        if (!(dataset instanceof ReshardableStreamingDataset<T> reshardable)) {
            throw new IllegalArgumentException("this state's streams started from a resharded cursor, but "
                    + name() + " cannot be resharded, so it cannot go on from one");
        }
        try {
            reshardable.checkCursor(cursor);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("this state's cursor does not fit " + name() + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * The start of this loader's streams when {@code state} was taken on another layout: what is
     * left of its epoch, as the dataset deals it out again.
     */
    private StreamState reshard(LoaderState state, StreamState mine) {
        StreamState s = state.streams();
        String layouts = "the state's streams are " + s.streams() + " worker(s) on rank " + s.rank() + " of "
                + s.worldSize() + "; this loader has " + mine.streams() + " (" + settings.numWorkers()
                + " workers) on rank " + mine.rank() + " of " + mine.worldSize();
        if (!(dataset instanceof ReshardableStreamingDataset<T> reshardable)) {
            throw new IllegalArgumentException("this state is from another loader: " + layouts + ". "
                    + name() + " deals its data out to its workers' streams and cannot deal what"
                    + " is left out again, so it resumes only with the same workers, rank and world size");
        }
        if (s.worldSize() != 1) {
            throw new IllegalArgumentException("this state holds rank " + s.rank() + "'s streams only (" + layouts
                    + "): to resume on another layout, merge the states of every rank with LoaderState.merge and"
                    + " restore that");
        }
        long[] cursor;
        try {
            cursor = reshardable.cursor(state.seed(), state.epoch(), s.start(), s.samples(), s.ended());
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException(name() + " cannot resume on another layout ("
                    + layouts + "): " + e.getMessage(), e);
        }
        return streamsFrom(cursor);
    }

    @Override
    public void rewind() {
        next = fresh();
    }

    @Override
    public long batchesPerEpoch() {
        throw new UnsupportedOperationException("a streaming dataset (" + name()
                + ") has no length; count the batches as they come");
    }

    @Override
    public Optional<SampleLayout> fillLayout() {
        return batches.recipe().fillLayout();
    }

    @Override
    public String describe() {
        return "streaming, batch " + settings.batchSize() + (settings.dropLast() ? ", drop last" : "");
    }
}
