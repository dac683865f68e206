package dev.stoker.loader.engine;

import dev.stoker.loader.Batch;

/**
 * The batches of one pass, in delivery order, as an {@link Engine} makes them, and the log of
 * what the consumer received of them (what the loader's state is taken from). Used by one
 * consumer thread, but for {@link #close()}.
 */
public interface BatchSource extends AutoCloseable {

    /**
     * The next batch, or {@code null} when the pass is over.
     *
     * @throws LoaderException for a batch that failed; a map-style pass goes on after it
     */
    Batch next();

    /**
     * Batches (or their errors) made ahead and waiting for the consumer: the queue's depth. Any
     * thread; a reading, not a promise. None for a pass that makes each batch when asked.
     */
    default int ready() {
        return 0;
    }

    /** The consumer has received {@code batch} from {@link #next()}: the pass's log counts it. */
    void received(Batch batch);

    /** The consumer has received {@code failure}, thrown by {@link #next()} in a batch's place. */
    void received(RuntimeException failure);

    /**
     * Ends the pass, early or not: stops its work, closes its streams and gives back the memory
     * of batches made but not handed out. Idempotent.
     */
    @Override
    void close();
}
