package dev.stoker.vision.transform;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Gets the Vector API loop ({@link VectorMac}) compiled on a thread of its own, while the
 * resampler runs the plain loop, and tells {@link Mac} when the vector loop is the faster: after
 * it has won {@link #WINS} timed rounds in a row against the plain loop on the same work. Until
 * C2 compiles it, each vector operation is Java code that allocates, many times slower than the
 * plain loop. A round is a few dozen microseconds once compiled; the whole warm-up 0.5-1 s of one
 * thread in a new JVM, most of it the Vector API's own classes and code run before C2 compiles
 * them. It gives up waiting after {@link #MAX_NANOS} (a machine too busy to
 * time anything) and lets the vector loop take over anyway, as it did before this class.
 */
final class VectorWarmup {
    /** Calls per timed round, and the length of each: a 224-pixel RGB row block's 48 ints. */
    private static final int CALLS = 200;
    private static final int LENGTH = 48;
    /** Rounds the vector loop must win in a row: one win can be the plain loop's thread preempted. */
    private static final int WINS = 3;
    private static final long MAX_NANOS = 10_000_000_000L;
    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private VectorWarmup() {}

    /** Starts the warm-up once per JVM (a daemon thread: it never keeps the JVM alive). */
    static void start() {
        if (STARTED.compareAndSet(false, true)) {
            Thread t = new Thread(VectorWarmup::run, "stoker-vector-warmup");
            t.setDaemon(true);
            t.start();
        }
    }

    private static void run() {
        try {
            int[] src = new int[LENGTH + CALLS];
            for (int i = 0; i < src.length; i++) {
                src[i] = (i * 37) & 0xFF;
            }
            int[] vectorAcc = new int[LENGTH];
            int[] plainAcc = new int[LENGTH];
            long start = System.nanoTime();
            int wins = 0;
            while (wins < WINS && System.nanoTime() - start < MAX_NANOS) {
                long t0 = System.nanoTime();
                for (int i = 0; i < CALLS; i++) {
                    VectorMac.mac(vectorAcc, src, i, 3, LENGTH);
                }
                long t1 = System.nanoTime();
                for (int i = 0; i < CALLS; i++) {
                    Mac.plain(plainAcc, src, i, 3, LENGTH);
                }
                long t2 = System.nanoTime();
                wins = t1 - t0 < t2 - t1 ? wins + 1 : 0;
                if (vectorAcc[0] != plainAcc[0]) {  // never: it keeps both loops' results alive
                    throw new AssertionError("the vector and plain loops disagree");
                }
            }
        } finally {
            Mac.vectorReady();
        }
    }
}
