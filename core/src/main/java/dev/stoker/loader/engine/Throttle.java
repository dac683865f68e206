package dev.stoker.loader.engine;

import java.util.concurrent.Semaphore;

/**
 * How many workers may make a batch at once, changed while they run: a fair semaphore whose
 * permit count the autotuner sets. Fair, so that the worker whose batch the consumer waits for
 * gets the next permit rather than one that just gave its own back.
 */
final class Throttle extends Semaphore {
    private static final long serialVersionUID = 1L;
    private int size;

    Throttle(int size) {
        super(size, true);
        this.size = size;
    }

    /** Sets the permit count; a worker making a batch finishes it, so fewer take effect as they end. */
    synchronized void resize(int newSize) {
        if (newSize > size) {
            release(newSize - size);
        } else if (newSize < size) {
            reducePermits(size - newSize);
        }
        size = newSize;
    }
}
