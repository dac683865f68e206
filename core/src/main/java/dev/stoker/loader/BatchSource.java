package dev.stoker.loader;

/**
 * The batches of one pass, in delivery order, as an {@link Engine} makes them. Used by one
 * consumer thread.
 */
interface BatchSource extends AutoCloseable {

    /**
     * The next batch, or {@code null} when the pass is over.
     *
     * @throws LoaderException for a batch that failed; a map-style pass goes on after it
     */
    Batch next();

    /**
     * The consumer has received {@code item}, a batch from {@link #next()} or the exception it
     * threw: what a streaming pass counts for {@link DataLoader#state()}.
     */
    default void handedOut(Object item) {}

    /**
     * Ends the pass, early or not: stops its work, closes its streams and gives back the memory
     * of batches made but not handed out. Idempotent.
     */
    @Override
    void close();
}
