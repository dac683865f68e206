package dev.stoker.loader.engine;

import java.util.ArrayDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where the workers of one pass leave their batches and the consumer takes them: the reorder
 * buffer and the prefetch bound in one place.
 *
 * <p>Each worker has a queue of its results ({@link BoardResult}), in the order it made
 * them, and {@code prefetch} slots: a worker takes a slot before it starts a batch and the slot
 * comes back when the consumer takes that batch, so no worker holds more than {@code prefetch}
 * batches made or being made and not yet taken, and the pass no more than
 * {@code prefetch x workers}: the memory bound.
 *
 * <p>In order, the consumer takes from the workers in turn, 0, 1, ..., n-1, 0, ..., skipping a
 * worker that has ended and has nothing left. With map-style batches dealt out as batch {@code k}
 * to worker {@code k % n}, that turn order is the sampler's order; with streams it is PyTorch's
 * round robin over the workers. Out of order, it takes whichever result is there.
 *
 * <p>The prefetch depth is read from the pass's {@link LiveSettings}, which an autotuner may
 * change while workers wait here. A map-style worker also names the position of the batch it is
 * about to start: it waits while that position is {@code workers x prefetch} or more past the
 * results taken, so that the batches in flight stay under the tuned bound whatever the number of
 * lanes. The batch the consumer waits for is always inside that window, so the window cannot
 * hold the pass up.
 *
 * <p>A tuned stream's lanes hold at most {@link LiveSettings#streamWindow()} batches at once, by
 * turn: a lane may start its next batch only while that batch is fewer than the window places
 * after the consumer's next take (in order; out of order, while the lanes hold fewer than the
 * window in all). Every lane reads its own stream and holds a batch ahead whatever the tuner
 * does, so without it, lanes whose batches do not all fit the memory budget take the pool's
 * memory for batches the consumer wants later, and the lane it waits for finds none.
 */
final class ResultBoard {
    /** No result came within the timeout; {@code worker} is the one awaited, or -1 for any. */
    static final class Timeout extends Exception {
        private static final long serialVersionUID = 1L;
        final int worker;

        Timeout(int worker) {
            super(null, null, false, false);
            this.worker = worker;
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Condition[] room; // per worker: its slot may be free; a tuned window wakes them all
    private final ArrayDeque<BoardResult>[] queues;
    private final boolean[] ended;
    private final int[] held; // per worker: batches made or being made and not taken (tuned)
    // Untuned, each worker's slots are a semaphore of its own, as before the autotuner: taking
    // one does not contend with the consumer for the board's lock (ReorderBenchmark measured
    // the shared lock at +20-60% on the hand-over). Null when tuned.
    private final Semaphore[] slots;
    private final LiveSettings live;
    private final boolean inOrder;
    private int cursor;
    private boolean sizeAwaited; // a stream lane waits for the first batch's bytes, known once one is made
    private long taken; // results taken in this pass
    private volatile int ready; // results left and not taken: written under the lock, read by anyone
    private boolean closed;

    ResultBoard(int workers, int prefetch, boolean inOrder) {
        this(workers, LiveSettings.fixed(workers, prefetch), inOrder);
    }

    @SuppressWarnings("unchecked")
    ResultBoard(int workers, LiveSettings live, boolean inOrder) {
        this.queues = new ArrayDeque[workers];
        this.ended = new boolean[workers];
        this.held = new int[workers];
        this.room = new Condition[workers];
        this.slots = live.tuned() ? null : new Semaphore[workers];
        for (int w = 0; w < workers; w++) {
            queues[w] = new ArrayDeque<>();
            room[w] = lock.newCondition();
            if (slots != null) {
                slots[w] = new Semaphore(live.prefetch());
            }
        }
        this.live = live;
        this.inOrder = inOrder;
    }

    /** Makes worker {@code w}'s the first turn (a resumed stream pass); before any take. */
    void startAt(int w) {
        lock.lock();
        try {
            cursor = w;
        } finally {
            lock.unlock();
        }
    }

    /** Waits for room for one more batch of worker {@code w}. Worker side. */
    void acquireSlot(int w) throws InterruptedException {
        acquireSlot(w, -1);
    }

    /**
     * Waits for room for one more batch of worker {@code w}, at {@code position} among the pass's
     * results (-1: not known, as in a stream). Returns at once when the board is closed.
     *
     * @return false, holding no slot, when the consumer has taken that position already: it made
     *     that batch itself ({@link #tookItself}); a worker's own batches are taken after it made them
     */
    boolean acquireSlot(int w, long position) throws InterruptedException {
        if (slots != null) {
            slots[w].acquire();
            return true;
        }
        lock.lockInterruptibly();
        try {
            while (!closed && (held[w] >= live.prefetch() || position >= 0 && position - taken >= live.window()
                    || position < 0 && streamFull(w))) {
                if (position >= 0 && position < taken) {
                    return false;
                }
                room[w].await();
            }
            if (!closed && position >= 0 && position < taken) {
                return false;
            }
            held[w]++;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether stream lane {@code w}'s next batch would pass the stream window: in order, when it
     * would come the window or more places after the consumer's next take (the lanes still to
     * deliver, from the cursor, then {@code held[w]} rounds of them); out of order, when the
     * lanes hold the window already. Under the lock.
     */
    private boolean streamFull(int w) {
        int window = live.streamWindow();
        if (window == Integer.MAX_VALUE) {
            return false;
        }
        if (window <= 0) { // a batch's bytes not known yet: one at a time until one is made
            sizeAwaited = true;
            window = 1;
        }
        int n = queues.length;
        if (!inOrder) {
            long holding = 0;
            for (int h : held) {
                holding += h;
            }
            return holding >= window;
        }
        int running = 0;
        int before = 0;
        for (int i = 0; i < n; i++) {
            int v = (cursor + i) % n;
            if (v == w) {
                before = running;
            }
            if (!ended[v] || !queues[v].isEmpty()) {
                running++;
            }
        }
        return before + (long) held[w] * running >= window;
    }

    /** Whether the consumer has taken {@code position} (for a worker's own position: made it itself). */
    boolean isTaken(long position) {
        lock.lock();
        try {
            return position < taken;
        } finally {
            lock.unlock();
        }
    }

    /** Whether worker {@code w} has a result waiting. */
    boolean hasResult(int w) {
        lock.lock();
        try {
            return !queues[w].isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The consumer made worker {@code w}'s next batch itself, in its turn (a tuned pass at 0
     * workers): the turn passes on as if it had taken it from the board, and workers waiting for
     * that position learn it is done.
     */
    void tookItself(int w) {
        lock.lock();
        try {
            taken++;
            cursor = (w + 1) % queues.length;
            wakeAll();
        } finally {
            lock.unlock();
        }
    }

    /** Gives back a slot taken for a batch that will not come (the worker found no more work). */
    void releaseSlot(int w) {
        if (slots != null) {
            slots[w].release();
            return;
        }
        lock.lock();
        try {
            held[w]--;
            room[w].signal();
        } finally {
            lock.unlock();
        }
    }

    /** The settings changed: workers waiting for room look again. */
    void wake() {
        lock.lock();
        try {
            wakeAll();
        } finally {
            lock.unlock();
        }
    }

    private void wakeAll() {
        for (Condition c : room) {
            c.signal();
        }
    }

    /**
     * Leaves a result of worker {@code w}. After {@link #close()} a batch is closed at once
     * instead.
     *
     * @return false when the board is closed: the worker should stop
     */
    boolean put(int w, BoardResult result) {
        lock.lock();
        try {
            if (!closed) {
                queues[w].add(result);
                ready++; // under the lock: the only writers hold it
                changed.signalAll();
                if (sizeAwaited) { // the first batch's bytes are known now: the stream window opens
                    sizeAwaited = false;
                    wakeAll();
                }
                return true;
            }
        } finally {
            lock.unlock();
        }
        result.discard();
        return false;
    }

    /** Worker {@code w} will leave nothing more in this pass. */
    void end(int w) {
        lock.lock();
        try {
            ended[w] = true;
            changed.signalAll();
            if (slots == null) {
                wakeAll(); // one lane fewer in turn: a stream lane's next batch comes sooner
            }
        } finally {
            lock.unlock();
        }
    }

    /** Results left by the workers and not yet taken: the queue ahead of the consumer. Any thread, no lock. */
    int ready() {
        return ready;
    }

    boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The next result, in order or as ready; {@code null} when every worker has ended and left
     * nothing, or the board is closed.
     *
     * @param timeoutNanos how long to wait, 0 for as long as it takes
     * @throws Timeout when nothing came in time
     * @throws InterruptedException when the consumer is interrupted while waiting
     */
    BoardResult take(long timeoutNanos) throws Timeout, InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        lock.lock();
        try {
            while (true) {
                if (closed) {
                    return null;
                }
                int w = inOrder ? nextInTurn() : anyReady();
                if (w == -2) {
                    return null; // all ended, nothing left
                }
                if (w >= 0 && !queues[w].isEmpty()) {
                    BoardResult result = queues[w].poll();
                    ready--;
                    if (slots != null) {
                        slots[w].release(); // only w's slot came free
                    } else {
                        held[w]--;
                        taken++;
                        wakeAll(); // the window moved: any worker may start now
                    }
                    cursor = (w + 1) % queues.length;
                    return result;
                }
                if (timeoutNanos == 0) {
                    changed.await();
                } else {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new Timeout(inOrder ? w : -1);
                    }
                    changed.awaitNanos(left);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** The worker whose turn it is (skipping exhausted ones), or -2 when all are exhausted. */
    private int nextInTurn() {
        for (int i = 0; i < queues.length; i++) {
            int w = (cursor + i) % queues.length;
            if (!queues[w].isEmpty() || !ended[w]) {
                cursor = w;
                return w;
            }
        }
        return -2;
    }

    /** A worker with a result waiting (from the cursor on, for fairness), -1 when none yet, -2 when all are done. */
    private int anyReady() {
        boolean pending = false;
        for (int i = 0; i < queues.length; i++) {
            int w = (cursor + i) % queues.length;
            if (!queues[w].isEmpty()) {
                return w;
            }
            pending |= !ended[w];
        }
        return pending ? -1 : -2;
    }

    /** Closes every batch left and refuses new ones; wakes a waiting consumer. Idempotent. */
    void close() {
        ArrayDeque<BoardResult> left = new ArrayDeque<>();
        lock.lock();
        try {
            closed = true;
            wakeAll();
            if (slots != null) {
                for (Semaphore s : slots) {
                    s.release(Integer.MAX_VALUE / 2); // a worker waiting for room returns at once
                }
            }
            for (ArrayDeque<BoardResult> q : queues) {
                left.addAll(q);
                q.clear();
            }
            ready = 0;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        for (BoardResult r : left) {
            r.discard();
        }
    }
}
