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
    /** Vectors of 256 bits or more: {@link VectorResampler}'s path (it widens 8 or 16 bytes at once). */
    static final boolean WIDE = VECTOR && VectorMac.bitSize() >= 256;

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

    static void mac(int[] acc, int[] src, int offset, int w, int n) {
        if (VECTOR) {
            VectorMac.mac(acc, src, offset, w, n);
        } else {
            for (int e = 0; e < n; e++) {
                acc[e] += src[offset + e] * w;
            }
        }
    }
}
