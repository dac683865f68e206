package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;
import java.util.Objects;

/**
 * torchvision 0.14's {@code AugMix(severity=3, mixture_width=3, chain_depth=-1, alpha=1.0,
 * all_ops=True, interpolation=BILINEAR, fill=None)}: {@code mixtureWidth} chains of one to
 * three random ops (or {@code chainDepth}) each run on a copy of the image, then mixed with it:
 * {@code m0 * image + m1 * sum(w_i * chain_i)}, {@code (m0, m1)} from {@code Dirichlet(alpha,
 * alpha)} and {@code w} from {@code Dirichlet(alpha, ..., alpha)}, in float32, truncated to 8 bits.
 *
 * <pre>{@code
 * ImagePipeline.builder().add(new RandomResizedCrop(224)).add(new RandomHorizontalFlip())
 *         .add(new AugMix()).build();
 * new AugMix().fill(Fill.of(128));     // fill=128: what the warps uncover is grey
 * }</pre>
 *
 * <p>As torchvision, which turns a PIL image into a uint8 tensor first, the ops run with the
 * tensor arithmetic ({@code grid_sample} warps, float32 blends; {@link TensorOps}), not Pillow's
 * that {@link TrivialAugmentWide} follows. The space: shear, translate (to a third of the side),
 * rotate, posterize (4 bits down to 0), solarize, autocontrast, equalize, and with {@code allOps}
 * brightness, colour, contrast and sharpness, each at one of the first {@code severity} bins of
 * ten. torchvision 0.14's docstring says the interpolation defaults to nearest; its code passes
 * bilinear, which is what it does and what {@link #AugMix()} does.
 *
 * <p>Draws, as torchvision's {@code forward}: the two Dirichlets ({@link SampleRandom#gamma} for
 * each component); then per chain its depth (when {@code chainDepth <= 0}) and per op: the op, its
 * bin (ops with magnitudes), its sign (signed ops).
 *
 * @param severity      the magnitude bins used, 1 to 10
 * @param mixtureWidth  the number of chains, at least 1
 * @param chainDepth    ops per chain; 0 or less: 1 to 3, drawn per chain
 * @param alpha         the Dirichlet concentration, positive
 * @param allOps        whether brightness, colour, contrast and sharpness are in the space
 * @param interpolation of the warps
 * @param fill          what the warps uncover ({@link Fill#NONE}: torchvision's {@code None}, black)
 */
public record AugMix(int severity, int mixtureWidth, int chainDepth, double alpha, boolean allOps,
                     Interpolation interpolation, Fill fill) implements PixelOp {
    private static final int BINS = 10;
    private static final PolicyOp[] ALL_OPS = {PolicyOp.SHEAR_X, PolicyOp.SHEAR_Y, PolicyOp.TRANSLATE_X,
        PolicyOp.TRANSLATE_Y, PolicyOp.ROTATE, PolicyOp.POSTERIZE, PolicyOp.SOLARIZE, PolicyOp.AUTO_CONTRAST,
        PolicyOp.EQUALIZE, PolicyOp.BRIGHTNESS, PolicyOp.COLOR, PolicyOp.CONTRAST, PolicyOp.SHARPNESS};
    /** Without {@code allOps}: the first nine. */
    private static final int BASIC_OPS = 9;

    /** The working copies, per thread: a chain's tile and the float32 mix (a 224 tile's are 150 kB and 600 kB). */
    private static final ThreadLocal<Work> WORK = ThreadLocal.withInitial(Work::new);

    public AugMix {
        if (severity < 1 || severity > BINS) {
            throw new IllegalArgumentException("AugMix's severity is 1 to 10, not " + severity);
        }
        if (mixtureWidth < 1) {
            throw new IllegalArgumentException("AugMix needs at least one chain, not " + mixtureWidth);
        }
        if (!(alpha > 0) || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException("AugMix's alpha is positive and finite, not " + alpha);
        }
        Objects.requireNonNull(interpolation, "interpolation");
        Objects.requireNonNull(fill, "fill (Fill.NONE for torchvision's None)");
    }

    /** These parameters, {@code fill=None}. */
    public AugMix(int severity, int mixtureWidth, int chainDepth, double alpha, boolean allOps,
                  Interpolation interpolation) {
        this(severity, mixtureWidth, chainDepth, alpha, allOps, interpolation, Fill.NONE);
    }

    /** torchvision 0.14's defaults: severity 3, 3 chains of 1 to 3 ops, alpha 1, all ops, bilinear, fill None. */
    public AugMix() {
        this(3, 3, -1, 1.0, true, Interpolation.BILINEAR);
    }

    /** The same with the warps' {@code fill}. */
    public AugMix fill(Fill fill) {
        return new AugMix(severity, mixtureWidth, chainDepth, alpha, allOps, interpolation, fill);
    }

    /** The ops of the space, in torchvision's order ({@code _augmentation_space}'s keys). */
    static PolicyOp[] space(boolean allOps) {
        return allOps ? ALL_OPS.clone() : java.util.Arrays.copyOf(ALL_OPS, BASIC_OPS);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        float[] m = dirichlet(2, random);
        float[] weights = dirichlet(mixtureWidth, random);
        int opCount = allOps ? ALL_OPS.length : BASIC_OPS;
        PolicyOp[][] ops = new PolicyOp[mixtureWidth][];
        double[][] magnitudes = new double[mixtureWidth][];
        for (int i = 0; i < mixtureWidth; i++) {
            int depth = chainDepth > 0 ? chainDepth : 1 + (int) random.below(3);
            ops[i] = new PolicyOp[depth];
            magnitudes[i] = new double[depth];
            for (int k = 0; k < depth; k++) {
                PolicyOp op = ALL_OPS[(int) random.below(opCount)];
                double magnitude = op.hasMagnitudes()
                        ? op.augMixMagnitude(BINS, (int) random.below(severity), tile.width(), tile.height()) : 0.0;
                if (op.signed && random.below(2) == 1) {
                    magnitude = -magnitude;
                }
                ops[i][k] = op;
                magnitudes[i][k] = magnitude;
            }
        }
        mix(tile, m, weights, ops, magnitudes, interpolation, fill);
    }

    /** A float32 draw from {@code Dirichlet(alpha, ..., alpha)} of {@code n} components. */
    private float[] dirichlet(int n, SampleRandom random) {
        double[] g = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            g[i] = random.gamma(alpha);
            sum += g[i];
        }
        float[] out = new float[n];
        if (sum == 0) {
            out[0] = 1f;    // every gamma underflowed (a tiny alpha): all the weight on one
            return out;
        }
        for (int i = 0; i < n; i++) {
            out[i] = (float) (g[i] / sum);
        }
        return out;
    }

    /**
     * The mix with the draws given: {@code m} the Beta pair (original, chains), {@code weights}
     * the chains' Dirichlet, chain {@code i} the ops {@code ops[i]} at {@code magnitudes[i]}.
     * Follows {@code forward}'s float32 steps: {@code m0 * x}, then per chain
     * {@code mix += (w_i * m1) * chain_i}, then {@code .to(uint8)} (truncation).
     */
    static void mix(Tile tile, float[] m, float[] weights, PolicyOp[][] ops, double[][] magnitudes,
                    Interpolation interpolation, Fill fill) {
        int n = tile.length();
        Work work = WORK.get();
        Tile chain = work.chain(tile);
        float[] acc = work.mix(n);
        byte[] px = tile.pixels();
        for (int i = 0; i < n; i++) {
            acc[i] = m[0] * (px[i] & 0xFF);
        }
        for (int c = 0; c < ops.length; c++) {
            float w = weights[c] * m[1];
            byte[] aug = chain.pixels();
            System.arraycopy(px, 0, aug, 0, n);
            for (int k = 0; k < ops[c].length; k++) {
                ops[c][k].applyTensor(chain, magnitudes[c][k], interpolation, fill);
            }
            for (int i = 0; i < n; i++) {
                acc[i] += w * (aug[i] & 0xFF);
            }
        }
        for (int i = 0; i < n; i++) {
            px[i] = (byte) TensorOps.clampTruncate(acc[i]);
        }
    }

    /** One thread's working copies. */
    private static final class Work {
        private Tile chain;
        private float[] mix = new float[0];

        Tile chain(Tile like) {
            if (chain == null || chain.width() != like.width() || chain.height() != like.height()) {
                chain = Tile.of(like.width(), like.height(), like.pixels());
            }
            return chain;
        }

        float[] mix(int n) {
            if (mix.length < n) {
                mix = new float[n];
            }
            return mix;
        }
    }
}
