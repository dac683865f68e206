package dev.stoker.vision.transform;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorSpecies;

/** {@link Mac} with the Vector API; loaded only when the incubator module is present. */
final class VectorMac {
    private static final VectorSpecies<Integer> SPECIES = IntVector.SPECIES_PREFERRED;

    private VectorMac() {}

    static int bitSize() {
        return SPECIES.vectorBitSize();
    }

    static void mac(int[] acc, int[] src, int offset, int w, int n) {
        int step = SPECIES.length();
        int e = 0;
        for (int bound = SPECIES.loopBound(n); e < bound; e += step) {
            IntVector.fromArray(SPECIES, acc, e)
                    .add(IntVector.fromArray(SPECIES, src, offset + e).mul(w))
                    .intoArray(acc, e);
        }
        for (; e < n; e++) {
            acc[e] += src[offset + e] * w;
        }
    }
}
