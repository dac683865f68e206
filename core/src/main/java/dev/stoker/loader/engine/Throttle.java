package dev.stoker.loader.engine;

import java.util.concurrent.Semaphore;

/**
 * How many may run at once (workers making a batch, the I/O mode's fetches: {@link IoLimit}),
 * changed while they run: a fair semaphore whose permit count the autotuner sets. Fair, so that
 * the worker whose batch the consumer waits for gets the next permit rather than one that just
 * gave its own back.
 */
final class Throttle extends Semaphore {
    private static final long serialVersionUID = 1L;
    private volatile int size; // written under this; read by anyone

    Throttle(int size) {
        super(size, true);
        this.size = size;
    }

    /** The permit count last set. */
    int size() {
        return size;
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
