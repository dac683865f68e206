package dev.stoker.vision.augment;

/**
 * torchvision's {@code fill} of a warp: what the pixels that the warped image does not cover
 * become. {@link #NONE} is torchvision's {@code fill=None}; {@link #of(double...)} takes what
 * torchvision takes, a number or a sequence of one value or one per channel (R, G, B).
 *
 * <pre>{@code
 * new AugMix().fill(Fill.of(128));            // fill=128
 * new AugMix().fill(Fill.of(124, 116, 104));  // fill=[124, 116, 104]
 * }</pre>
 *
 * <p>torchvision applies a fill two ways, and Stoker follows each op's: on a PIL image (the
 * warps of {@link Warp}: {@link RandomRotation}, {@link RandomAffine}, {@link RandomPerspective},
 * {@link TrivialAugmentWide}, {@link RandAugment}, {@link AutoAugment}) it is Pillow's
 * {@code fillcolor}, each value truncated to a whole number, and {@code None} is 0. On a tensor
 * (as {@link AugMix} warps) a fraction is rounded half to even, and {@code None} and {@code 0}
 * differ: with a fill, torchvision samples a mask with the image and blends every bilinear
 * pixel with the fill by it, so an edge pixel of {@code fill=0} is darker than
 * {@code fill=None}'s. One difference: torchvision refuses a one-value sequence on a PIL image
 * ({@code [v]}), which Stoker takes as {@code v}, as torchvision does on a tensor. Values are 0
 * to 255, the image's 8-bit units: torchvision would cast a value outside them unchecked.
 */
public sealed interface Fill {
    /** torchvision's {@code fill=None}: black, without the mask. */
    Fill NONE = new None();

    /** {@code fill=value}: every channel {@code value}, 0 to 255. */
    static Fill of(double value) {
        return new Color((float) value, (float) value, (float) value);
    }

    /**
     * {@code fill=[...]} as torchvision takes it: one value for every channel, or one per
     * channel (R, G, B); each 0 to 255.
     */
    static Fill of(double... values) {
        return switch (values.length) {
            case 1 -> of(values[0]);
            case 3 -> new Color((float) values[0], (float) values[1], (float) values[2]);
            default -> throw new IllegalArgumentException("a fill is one value or one per channel (3 for RGB), as"
                    + " torchvision's, not " + values.length + " values");
        };
    }

    /** torchvision's {@code fill=None}. */
    record None() implements Fill {
        @Override
        public String toString() {
            return "None";
        }
    }

    /**
     * A fill colour, in the image's 8-bit units (torchvision's values as given; a fraction is
     * truncated on the PIL path, rounded half to even on the tensor path).
     *
     * @param red   0 to 255
     * @param green 0 to 255
     * @param blue  0 to 255
     */
    record Color(float red, float green, float blue) implements Fill {
        public Color {
            if (!(red >= 0 && red <= 255 && green >= 0 && green <= 255 && blue >= 0 && blue <= 255)) {
                throw new IllegalArgumentException("a fill is 0 to 255 per channel on an 8-bit image, not (" + red
                        + ", " + green + ", " + blue + "); torchvision would cast it to uint8 unchecked");
            }
        }

        /** Channel {@code c}: 0 red, 1 green, 2 blue. */
        float channel(int c) {
            return c == 0 ? red : c == 1 ? green : blue;
        }
    }
}
