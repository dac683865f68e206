package dev.stoker.vision.transform;

/**
 * The resampler's inner loop, {@code acc[e] += src[offset + e] * w}: with the Vector API when
 * the JVM was started with {@code --add-modules jdk.incubator.vector} (the {@code stoker}
 * launcher and the build do), else a plain loop. The JIT does not vectorize the plain loop by
 * itself (it cannot rule out that the two arrays are one), and the vector one is about 4x faster.
 * {@code -Dstoker.vision.vector=false} forces the plain loop.
 */
final class Mac {
    static final boolean VECTOR = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
            && !"false".equals(System.getProperty("stoker.vision.vector"));

    private Mac() {}

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
