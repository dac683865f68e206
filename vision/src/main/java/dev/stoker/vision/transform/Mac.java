package dev.stoker.vision.transform;

/**
 * Whether the resampler may use the Vector API ({@link #VECTOR}: the JVM was started with
 * {@code --add-modules jdk.incubator.vector}, as the {@code stoker} launcher and the build do;
 * {@code -Dstoker.vision.vector=false} says no), and {@link ReferenceResampler}'s inner loop,
 * {@code acc[e] += src[offset + e] * w}, with it or as a plain loop. The JIT does not vectorize
 * the plain loop by itself (it cannot rule out that the two arrays are one).
 */
final class Mac {
    static final boolean VECTOR = vector();

    /**
     * Images a new JVM renders with the plain loops before {@link VectorWarmup} starts. Vector code
     * is fast only once C2 has compiled it: before that each vector operation is Java code that
     * allocates, and W3's cold first batch took about twice as long with it. Warming it up costs
     * 0.5-1 s of a core; started with the first image it delayed the first batch on 2 cores about
     * as much as it saved, so it starts after a new JVM's first batches.
     */
    static final int WARMUP_AFTER_IMAGES = 256;
    /** Set once by {@link VectorWarmup} when the vector code beats the plain loops (or it stopped waiting). */
    private static volatile boolean vectorReady;
    /** Set by the first image rendered, with the Vector API or without. */
    private static volatile boolean imagesStarted;
    private static final java.util.concurrent.atomic.AtomicInteger COLD_IMAGES = new java.util.concurrent.atomic.AtomicInteger();

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
     * Whether the next image may run vector code: false without the Vector API, and in a new JVM
     * until the warm-up has seen the vector code compiled; the {@link #WARMUP_AFTER_IMAGES}th call
     * starts the warm-up. Ask once per image. Both paths give the same integer sums, so the answer
     * changes no pixel.
     */
    static boolean vectorNow() {
        if (VECTOR && vectorReady) {
            return true;
        }
        if (!imagesStarted) {
            imagesStarted = true;
        }
        if (!VECTOR) {
            return false;
        }
        if (COLD_IMAGES.incrementAndGet() == WARMUP_AFTER_IMAGES) {
            VectorWarmup.start();
        }
        return false;
    }

    /**
     * Vectors of 256 bits or more: {@link VectorResampler}'s path (it widens 8 or 16 bytes at once).
     * Asked for only where the vector code may run: the answer initializes the Vector API (34
     * classes and their set-up, on the first image's path when this class computed it), which a
     * new JVM's first images, on the plain loops, do without.
     */
    static boolean wide() {
        return VECTOR && Wide.WIDE;
    }

    /** {@link #wide()}'s answer, computed when first asked for. */
    private static final class Wide {
        static final boolean WIDE = VectorMac.bitSize() >= 256;
    }

    /** Whether an image has been rendered yet (the plain loops' warm-up stops then). */
    static boolean imagesStarted() {
        return imagesStarted;
    }

    /** Whether the warm-up has handed over (without counting an image). */
    static boolean vectorReady() {
        return VECTOR && vectorReady;
    }

    /** Called by {@link VectorWarmup} when the vector code may take over. */
    static void handOver() {
        vectorReady = true;
    }

    /** {@code acc[e] += src[offset + e] * w} for {@code e < n}, with the Vector API when {@code vector}. */
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
