package dev.stoker.vision.augment;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link Adjust#sharpness}'s inner loop in float lanes: the same IEEE operations in the same
 * order as the scalar loop (the products, the sums of each row of the 3x3 kernel, then their
 * sum; rounding half up; the blend), so the same bytes. Every value of a row's interior has the
 * same neighbours at -3, +3 and one row up and down, whatever its channel, so L values go at
 * once. Loaded only when {@link Lanes#WIDE}.
 */
final class VectorSharpness {
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> I = VectorSpecies.of(int.class, F.vectorShape());
    private static final int L = F.length();
    private static final VectorSpecies<Byte> B = VectorSpecies.of(byte.class, VectorShape.forBitSize(8 * L));

    private VectorSharpness() {}

    static int bitSize() {
        return F.vectorBitSize();
    }

    /**
     * Sharpens values {@code [from, from + n)} of {@code px} from {@code src} (rows {@code stride}
     * bytes apart), whole vectors only; returns how many it did (the caller does the rest).
     */
    static int row(byte[] src, byte[] px, int from, int n, int stride, float alpha) {
        float k = 1f / 13f;
        float k5 = 5f / 13f;
        int done = 0;
        for (; done + L <= n; done += L) {
            int at = from + done;
            int below = at + stride;
            int above = at - stride;
            FloatVector s1 = f(src, below - 3).mul(k).add(f(src, below).mul(k)).add(f(src, below + 3).mul(k));
            IntVector centre = i(src, at);
            FloatVector s2 = f(src, at - 3).mul(k).add(((FloatVector) centre.convert(VectorOperators.I2F, 0)).mul(k5))
                    .add(f(src, at + 3).mul(k));
            FloatVector s3 = f(src, above - 3).mul(k).add(f(src, above).mul(k)).add(f(src, above + 3).mul(k));
            FloatVector ss = s1.add(s2).add(s3).add(0.5f);
            // clip8: 0 at or below 0, 255 at or above, else truncated (the cast truncates).
            IntVector smooth = (IntVector) ss.max(0f).min(255f).convert(VectorOperators.F2I, 0);
            FloatVector t = ((FloatVector) smooth.convert(VectorOperators.I2F, 0))
                    .add(((FloatVector) centre.sub(smooth).convert(VectorOperators.I2F, 0)).mul(alpha));
            // blend: truncated, clipped when alpha is outside [0, 1] (inside it t cannot leave 0..255).
            ((IntVector) t.max(0f).min(255f).convert(VectorOperators.F2I, 0))
                    .convertShape(VectorOperators.I2B, B, 0).reinterpretAsBytes().intoArray(px, at);
        }
        return done;
    }

    private static IntVector i(byte[] a, int at) {
        return (IntVector) ByteVector.fromArray(B, a, at).convertShape(VectorOperators.ZERO_EXTEND_B2I, I, 0);
    }

    private static FloatVector f(byte[] a, int at) {
        return (FloatVector) i(a, at).convert(VectorOperators.I2F, 0);
    }
}
