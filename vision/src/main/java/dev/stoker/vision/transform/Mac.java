package dev.stoker.vision.transform;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The resampler's inner loop, {@code acc[e] += src[offset + e] * w}: with the Vector API when
 * the JVM was started with {@code --add-modules jdk.incubator.vector} (the {@code stoker}
 * launcher and the build do), else a plain loop. The JIT does not vectorize the plain loop by
 * itself (it cannot rule out that the two arrays are one), and the vector one is about 4x faster.
 * {@code -Dstoker.vision.vector=false} forces the plain loop.
 *
 * <p>The vector loop is fast only once C2 has compiled it: before that, every vector operation
 * runs as Java code that allocates, and a new JVM's first batch of W3 took about twice as long
 * with it (its first 64 images) as with the plain loop. So the resampler asks {@link #useVector()}
 * once per image: the plain loop for a new JVM's first images and until a {@link VectorWarmup}
 * thread has seen the vector loop beat it, the vector loop after. Both give the same sums (integer arithmetic), so which loop ran
 * changes no pixel.
 */
final class Mac {
    static final boolean VECTOR = vector();

    /**
     * Images the plain loop renders before the warm-up starts: a new JVM's first batches (4 of W3's
     * in flight with 2 workers). Warming the Vector API up costs some 0.5-1 s of one core's time
     * (its classes, then the code interpreted until C2 compiles it); started with the first image,
     * on 2 cores, it delayed the first batch about as much as it saved.
     */
    static final int WARMUP_AFTER_IMAGES = 256;

    /** Set once by {@link VectorWarmup} when the vector loop is compiled (or it gave up waiting). */
    private static volatile boolean vectorReady;
    /** Images rendered with the plain loop before the warm-up started. */
    private static final AtomicInteger PLAIN_IMAGES = new AtomicInteger();

    private Mac() {}

    private static boolean vector() {
        if ("false".equals(System.getProperty("stoker.vision.vector"))) {
            return false;
        }
        // On the module path dev.stoker.vision does not require the incubator module (see its
        // module-info), so it reads it only from here; on the class path addReads does nothing.
        return ModuleLayer.boot().findModule("jdk.incubator.vector")
                .map(vector -> Mac.class.getModule().addReads(vector))
                .isPresent();
    }

    /**
     * Whether to run the vector loop for the next image: false without the Vector API, and until
     * the warm-up has seen it compiled; the {@link #WARMUP_AFTER_IMAGES}th call starts the warm-up.
     * One volatile read per call once the vector loop runs: ask once per image, not per row.
     */
    static boolean useVector() {
        if (!VECTOR) {
            return false;
        }
        if (vectorReady) {
            return true;
        }
        if (PLAIN_IMAGES.incrementAndGet() == WARMUP_AFTER_IMAGES) {
            VectorWarmup.start();
        }
        return false;
    }

    /** Called by {@link VectorWarmup} when the vector loop may take over. */
    static void vectorReady() {
        vectorReady = true;
    }

    /** {@code acc[e] += src[offset + e] * w} for {@code e < n}, with the loop {@code vector} picks. */
    static void mac(boolean vector, int[] acc, int[] src, int offset, int w, int n) {
        if (vector) {
            VectorMac.mac(acc, src, offset, w, n);
        } else {
            plain(acc, src, offset, w, n);
        }
    }

    static void plain(int[] acc, int[] src, int offset, int w, int n) {
        for (int e = 0; e < n; e++) {
            acc[e] += src[offset + e] * w;
        }
    }
}
