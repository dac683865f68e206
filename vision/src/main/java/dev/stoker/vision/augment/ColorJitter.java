package dev.stoker.vision.augment;

import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;

/**
 * torchvision's {@code ColorJitter(brightness, contrast, saturation, hue)}: the four adjustments
 * in a random order, each with a factor drawn uniformly from its range. A range of one value
 * (brightness, contrast and saturation {@code [1, 1]}, hue {@code [0, 0]}) is off: no draw, no
 * change, as torchvision's {@code None}.
 *
 * <pre>{@code
 * new ColorJitter(0.4, 0.4, 0.4, 0.1);   // factors in [0.6, 1.4]; hue in [-0.1, 0.1]
 * new ColorJitter(0.4, 0.4, 0.4, 0);     // no hue change (the torchvision reference recipe's)
 * }</pre>
 *
 * <p>Draws, as {@code get_params}: a permutation of the four (three {@link SampleRandom#below}),
 * then the brightness, contrast, saturation and hue factors that are on.
 */
public record ColorJitter(double brightnessMin, double brightnessMax, double contrastMin, double contrastMax,
                          double saturationMin, double saturationMax, double hueMin, double hueMax)
        implements PixelOp {
    public ColorJitter {
        check("brightness", brightnessMin, brightnessMax, 0, Double.MAX_VALUE);
        check("contrast", contrastMin, contrastMax, 0, Double.MAX_VALUE);
        check("saturation", saturationMin, saturationMax, 0, Double.MAX_VALUE);
        check("hue", hueMin, hueMax, -0.5, 0.5);
    }

    /**
     * torchvision's form: brightness, contrast and saturation factors in
     * {@code [max(0, 1 - v), 1 + v]}, the hue shift in {@code [-hue, hue]} (hue at most 0.5); 0 turns one off.
     */
    public ColorJitter(double brightness, double contrast, double saturation, double hue) {
        this(Math.max(0, 1 - nonNegative(brightness)), 1 + brightness, Math.max(0, 1 - nonNegative(contrast)),
                1 + contrast, Math.max(0, 1 - nonNegative(saturation)), 1 + saturation, -nonNegative(hue), hue);
    }

    @Override
    public void apply(Tile tile, SampleRandom random) {
        int[] order = {0, 1, 2, 3};
        for (int i = 3; i > 0; i--) {
            int j = (int) random.below(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        double b = brightnessMin == brightnessMax && brightnessMin == 1 ? Double.NaN
                : random.uniform(brightnessMin, brightnessMax);
        double c = contrastMin == contrastMax && contrastMin == 1 ? Double.NaN : random.uniform(contrastMin, contrastMax);
        double s = saturationMin == saturationMax && saturationMin == 1 ? Double.NaN
                : random.uniform(saturationMin, saturationMax);
        double h = hueMin == hueMax && hueMin == 0 ? Double.NaN : random.uniform(hueMin, hueMax);
        for (int op : order) {
            switch (op) {
                case 0 -> {
                    if (!Double.isNaN(b)) {
                        Adjust.brightness(tile, b);
                    }
                }
                case 1 -> {
                    if (!Double.isNaN(c)) {
                        Adjust.contrast(tile, c);
                    }
                }
                case 2 -> {
                    if (!Double.isNaN(s)) {
                        Adjust.saturation(tile, s);
                    }
                }
                default -> {
                    if (!Double.isNaN(h)) {
                        Adjust.hue(tile, h);
                    }
                }
            }
        }
    }

    private static double nonNegative(double v) {
        if (!(v >= 0)) {
            throw new IllegalArgumentException("a ColorJitter strength is non-negative, not " + v);
        }
        return v;
    }

    private static void check(String what, double lo, double hi, double min, double max) {
        if (!(lo >= min && lo <= hi && hi <= max)) {
            throw new IllegalArgumentException("ColorJitter's " + what + " range is within [" + min + ", " + max
                    + "] and ordered, not [" + lo + ", " + hi + "]");
        }
    }
}
