package dev.stoker.loader.engine;

import dev.stoker.data.SampleLayout;
import dev.stoker.loader.LoaderState;
import java.time.Duration;
import java.util.Optional;

/**
 * What a loader reads, and everything that depends on its kind: a map-style dataset read by index
 * ({@link MapSource}) or a streaming dataset read in order ({@link StreamSource}). A source starts
 * the passes of either engine, keeps the delivery log of the last one, says where the loader
 * stands ({@link #pendingState}, {@link #passState}) and goes on from a saved state
 * ({@link #restore}), and holds the recipe its batches are made by. The loader and its engines
 * hold one source and never ask which kind it is.
 *
 * <p>Called under the loader's lock, but for what a pass does from its own threads.
 */
public sealed interface Source<T> permits MapSource, StreamSource {

    /** The dataset's name, for messages. */
    String name();

    /**
     * Starts the pass of {@code epoch} in the consumer's thread ({@code numWorkers(0)}), from
     * where the last restore left the source or from the start of the epoch; its log becomes the
     * one {@link #passState} reads.
     */
    BatchSource serialPass(long epoch, BatchMaker maker);

    /** As {@link #serialPass}, with the batches made by {@code crew}; the caller submits the pass. */
    WorkerPass<T> workerPass(long epoch, BatchMaker maker, WorkerCrew crew, boolean ownsCrew, Duration grace);

    /** Where the loader stands when the next pass, of {@code epoch}, has not delivered anything yet. */
    LoaderState pendingState(long epoch);

    /**
     * Where the loader stands after the last pass started, of {@code epoch}; {@code ranToEnd} when
     * it delivered every batch.
     */
    LoaderState passState(long epoch, boolean ranToEnd);

    /**
     * Makes the next pass go on from {@code state}, once checked against this source; see the
     * loader's {@code restore}. The caller checks the epoch.
     *
     * @throws IllegalArgumentException when the state is not one this source can go on from
     */
    void restore(LoaderState state);

    /** Makes the next pass start at the start of its epoch (a new epoch was set). */
    void rewind();

    /**
     * Batches per epoch, like {@code len(loader)}.
     *
     * @throws UnsupportedOperationException for a streaming dataset, which has no length
     */
    long batchesPerEpoch();

    /** The layout batches are filled by; empty on the collate path. */
    Optional<SampleLayout> fillLayout();

    /**
     * The fetches at once of the loader's I/O mode, where it applies (a map-style dataset that
     * keeps the default per-sample loop, with {@code ioConcurrency > 0}); empty otherwise.
     */
    default Optional<IoLimit> ioLimit() {
        return Optional.empty();
    }

    /** What the loader reads and how, for its {@code toString}. */
    String describe();
}
