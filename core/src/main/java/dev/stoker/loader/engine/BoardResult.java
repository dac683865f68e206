package dev.stoker.loader.engine;

import dev.stoker.loader.Batch;
import dev.stoker.loader.LoaderException;

/**
 * What a worker leaves on the {@link ResultBoard} for one turn, and what the consumer takes: a
 * batch, a batch with nothing in it, a batch's failure, or a failure that ends the pass. Matched
 * exhaustively by the consumer ({@link WorkerPass#next}), so that a new kind of result cannot be
 * forgotten there.
 */
sealed interface BoardResult {

    /** A batch made; it goes to the consumer, who closes it. */
    record Made(Batch batch) implements BoardResult {}

    /**
     * A batch whose every sample was skipped ({@link SamplePolicy#SKIP}): it takes its turn on the
     * board, so that in-order delivery stays in order, and is passed over.
     */
    record Skipped() implements BoardResult {
        static final Skipped INSTANCE = new Skipped();
    }

    /** A batch that failed: its error reaches the consumer at its place, and the pass goes on. */
    record Failed(LoaderException exception) implements BoardResult {}

    /** A failure after which the worker cannot go on: delivered at its place, then the pass ends. */
    record Fatal(LoaderException exception) implements BoardResult {}

    /** Gives back what the result holds (a batch's memory) when nobody will take it. */
    default void discard() {
        if (this instanceof Made(Batch b)) {
            b.close();
        }
    }
}
