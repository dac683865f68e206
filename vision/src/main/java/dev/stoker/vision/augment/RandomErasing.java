package dev.stoker.vision.augment;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.TensorOp;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Objects;

/**
 * torchvision's {@code RandomErasing(p=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0)}, on
 * the normalized tensor as in torchvision's recipes (after {@code Normalize}): with probability
 * {@code p}, a rectangle of a random area (a fraction in {@code scale} of the image's) and
 * aspect ratio (log-uniform in {@code ratio}) is set to {@code value} per channel; ten tries,
 * and no erasing if none fits. The rectangle's height is {@code round(sqrt(area * ratio))}, its
 * width {@code round(sqrt(area / ratio))}, as torchvision has them.
 *
 * <pre>{@code
 * ImagePipeline.builder().add(new RandomResizedCrop(224)).add(new RandomErasing(0.25)).build();
 * }</pre>
 *
 * <p>Draws, as torchvision's: the probability; then per try the area fraction and the log
 * ratio; when a try fits, the top and the left ({@link SampleRandom#below}).
 *
 * @param p        the probability, in [0, 1]
 * @param scaleMin smallest area fraction
 * @param scaleMax largest area fraction
 * @param ratioMin smallest height / width
 * @param ratioMax largest
 * @param value    the value per channel (R, G, B), or one for all (torchvision's {@code value=v}), in
 *                 the slot's units (normalized; 0..255 for u8);
 *                 null for torchvision's {@code value="random"}: standard normal noise per element
 *                 ({@link #withNoise}), drawn after the top and the left
 */
public record RandomErasing(double p, double scaleMin, double scaleMax, double ratioMin, double ratioMax,
                            float[] value) implements TensorOp {
    public RandomErasing {
        Probability.check("RandomErasing", p);
        if (!(scaleMin >= 0 && scaleMin <= scaleMax && scaleMax <= 1) || !(ratioMin > 0 && ratioMin <= ratioMax)) {
            throw new IllegalArgumentException("RandomErasing needs 0 <= scaleMin <= scaleMax <= 1 and 0 < ratioMin"
                    + " <= ratioMax, not scale (" + scaleMin + ", " + scaleMax + "), ratio (" + ratioMin + ", "
                    + ratioMax + ")");
        }
        if (value != null && value.length != 1 && value.length != 3) {
            throw new IllegalArgumentException("RandomErasing's value is one number or one per channel (3), as"
                    + " torchvision's, not " + value.length + " values");
        }
        value = value == null ? null : value.length == 1 ? new float[] {value[0], value[0], value[0]} : value.clone();
    }

    /** torchvision's {@code RandomErasing(p, value="random")}: the rectangle filled with standard normal noise. */
    public static RandomErasing withNoise(double p) {
        return new RandomErasing(p, 0.02, 0.33, 0.3, 3.3, null);
    }

    /** torchvision's defaults: scale (0.02, 0.33), ratio (0.3, 3.3), value 0. */
    public RandomErasing(double p) {
        this(p, 0.02, 0.33, 0.3, 3.3, new float[3]);
    }

    /** torchvision's defaults, p = 0.5. */
    public RandomErasing() {
        this(0.5);
    }

    @Override
    public void apply(Tensor slot, SampleRandom random) {
        if (slot.shape().rank() != 3 || slot.shape().dim(0) != 3) {
            throw new IllegalArgumentException("RandomErasing works on a (3, H, W) slot, not " + slot.shape());
        }
        if (random.nextDouble() >= p) {
            return;
        }
        int h = (int) slot.shape().dim(1);
        int w = (int) slot.shape().dim(2);
        int[] box = params(h, w, random);
        if (box == null) {
            return;
        }
        if (value != null) {
            erase(slot, box[0], box[1], box[2], box[3], value);
            return;
        }
        int height = (int) slot.shape().dim(1);
        int width = (int) slot.shape().dim(2);
        for (int c = 0; c < 3; c++) {
            for (int y = box[0]; y < box[0] + box[2]; y++) {
                long at = ((long) c * height + y) * width + box[1];
                for (int x = 0; x < box[3]; x++) {
                    slot.setDouble(at + x, (float) random.normal());
                }
            }
        }
    }

    /** torchvision's {@code get_params}: {@code {top, left, height, width}}, or null when no try fits. */
    public int[] params(int imageHeight, int imageWidth, SampleRandom random) {
        double area = (double) imageHeight * imageWidth;
        double logMin = Math.log(ratioMin);
        double logMax = Math.log(ratioMax);
        for (int attempt = 0; attempt < 10; attempt++) {
            double eraseArea = area * random.uniform(scaleMin, scaleMax);
            double aspect = Math.exp(random.uniform(logMin, logMax));
            int eh = (int) Math.rint(Math.sqrt(eraseArea * aspect));
            int ew = (int) Math.rint(Math.sqrt(eraseArea / aspect));
            if (!(eh < imageHeight && ew < imageWidth)) {
                continue;
            }
            int top = (int) random.below(imageHeight - eh + 1);
            int left = (int) random.below(imageWidth - ew + 1);
            return new int[] {top, left, eh, ew};
        }
        return null;
    }

    /** {@code F.erase}: sets rows {@code [top, top + h)}, columns {@code [left, left + w)} of each channel to its value. */
    public static void erase(Tensor slot, int top, int left, int h, int w, float[] value) {
        int height = (int) slot.shape().dim(1);
        int width = (int) slot.shape().dim(2);
        MemorySegment seg = slot.segment();
        DType dtype = slot.dtype();
        for (int c = 0; c < 3; c++) {
            if (dtype == DType.F32) {
                float[] row = new float[w];
                Arrays.fill(row, value[c]);
                for (int y = top; y < top + h; y++) {
                    long at = ((long) c * height + y) * width + left;
                    MemorySegment.copy(row, 0, seg, ValueLayout.JAVA_FLOAT_UNALIGNED, at * 4, w);
                }
            } else {
                for (int y = top; y < top + h; y++) {
                    long at = ((long) c * height + y) * width + left;
                    for (int x = 0; x < w; x++) {
                        slot.setDouble(at + x, value[c]);
                    }
                }
            }
        }
    }

    @Override
    public float[] value() {
        return value == null ? null : value.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RandomErasing r && r.p == p && r.scaleMin == scaleMin && r.scaleMax == scaleMax
                && r.ratioMin == ratioMin && r.ratioMax == ratioMax && Arrays.equals(r.value, value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(p, scaleMin, scaleMax, ratioMin, ratioMax, Arrays.hashCode(value));
    }

    @Override
    public String toString() {
        return "RandomErasing(p=" + p + ", scale=(" + scaleMin + ", " + scaleMax + "), ratio=(" + ratioMin + ", "
                + ratioMax + "), value=" + (value == null ? "random" : Arrays.toString(value)) + ")";
    }
}
