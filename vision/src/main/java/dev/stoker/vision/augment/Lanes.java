package dev.stoker.vision.augment;

/**
 * Whether the augmentations may use the Vector API: the JVM has {@code jdk.incubator.vector}
 * (and {@code -Dstoker.vision.vector=false} does not turn it off) with vectors of 256 bits or
 * more. The resampler's own check (in the transform package, not exported to this one as API)
 * is the same; this module reads the incubator module from here too, in case an op runs first.
 */
final class Lanes {
    static final boolean WIDE = wide();

    private Lanes() {}

    private static boolean wide() {
        if ("false".equals(System.getProperty("stoker.vision.vector"))) {
            return false;
        }
        boolean present = ModuleLayer.boot().findModule("jdk.incubator.vector")
                .map(vector -> Lanes.class.getModule().addReads(vector))
                .isPresent();
        return present && VectorSharpness.bitSize() >= 256;
    }
}
