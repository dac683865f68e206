package dev.stoker.vision.augment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.Fixtures;
import dev.stoker.vision.transform.Tile;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The functional forms against torchvision 0.14 on Pillow 9.4 images (augment/, written by
 * src/test/python/make_augment_fixtures.py): exact, except the Gaussian blur, within one level.
 */
class AdjustParityTest {
    @Test
    void everyOpMatchesTorchvision() {
        List<String> failures = new ArrayList<>();
        int cases = 0;
        for (String[] row : Fixtures.table("augment/cases.txt")) {
            String name = row[0];
            Tile tile = Tile.of(Integer.parseInt(row[2]), Integer.parseInt(row[3]),
                    Fixtures.bytes("augment/" + row[1] + ".rgb"));
            String op = row[4];
            apply(tile, op, row[5]);
            byte[] expected = Fixtures.bytes("augment/" + name + ".rgb");
            // torch sums the blur in float32 in its own order; a sum that lands on a half may round
            // the other way (none does in these fixtures, but nothing promises it).
            int tolerance = op.equals("blur") ? 1 : 0;
            int max = Fixtures.maxDiff(tile.toArray(), expected);
            if (max > tolerance) {
                failures.add(name + ": max difference " + max + " (tolerance " + tolerance + "), "
                        + differing(tile.toArray(), expected) + " values differ");
            }
            cases++;
        }
        assertThat(cases).isGreaterThan(200);
        assertThat(failures).isEmpty();
    }

    static void apply(Tile tile, String op, String arg) {
        switch (op) {
            case "brightness" -> Adjust.brightness(tile, Double.parseDouble(arg));
            case "contrast" -> Adjust.contrast(tile, Double.parseDouble(arg));
            case "saturation" -> Adjust.saturation(tile, Double.parseDouble(arg));
            case "sharpness" -> Adjust.sharpness(tile, Double.parseDouble(arg));
            case "hue" -> Adjust.hue(tile, Double.parseDouble(arg));
            case "grayscale" -> Adjust.grayscale(tile);
            case "invert" -> Adjust.invert(tile);
            case "solarize" -> Adjust.solarize(tile, Double.parseDouble(arg));
            case "posterize" -> Adjust.posterize(tile, Integer.parseInt(arg));
            case "autocontrast" -> Adjust.autocontrast(tile);
            case "equalize" -> Adjust.equalize(tile);
            case "shearx" -> Warp.shearX(tile, Double.parseDouble(arg));
            case "sheary" -> Warp.shearY(tile, Double.parseDouble(arg));
            case "translatex" -> Warp.translate(tile, Integer.parseInt(arg), 0);
            case "translatey" -> Warp.translate(tile, 0, Integer.parseInt(arg));
            case "rotate" -> Warp.rotate(tile, Double.parseDouble(arg));
            case "affine", "affinebilinear" -> {
                String[] a = arg.split(":");
                Warp.affine(tile, Double.parseDouble(a[0]), Integer.parseInt(a[1]), Integer.parseInt(a[2]),
                        Double.parseDouble(a[3]), Double.parseDouble(a[4]), Double.parseDouble(a[5]),
                        op.endsWith("bilinear") ? Interpolation.BILINEAR : Interpolation.NEAREST);
            }
            case "rotatebilinear" -> Warp.rotate(tile, Double.parseDouble(arg), Interpolation.BILINEAR);
            case "shearxbilinear" -> Warp.shearX(tile, Double.parseDouble(arg), Interpolation.BILINEAR);
            case "translateybilinear" -> Warp.translate(tile, 0, Integer.parseInt(arg), Interpolation.BILINEAR);
            case "blur" -> {
                String[] ks = arg.split(":");
                Adjust.gaussianBlur(tile, Integer.parseInt(ks[0]), Double.parseDouble(ks[1]));
            }
            default -> throw new IllegalArgumentException("no op " + op);
        }
    }

    private static int differing(byte[] a, byte[] b) {
        int n = 0;
        for (int i = 0; i < a.length; i++) {
            n += a[i] != b[i] ? 1 : 0;
        }
        return n;
    }

    @Test
    void eraseMatchesTorchvisionOnTheNormalizedTensor() {
        float[] input = Fixtures.floats("augment/photo_normalized.f32");
        int W = 32;
        int H = 24;
        try (Arena arena = Arena.ofConfined()) {
            for (String[] row : Fixtures.table("augment/erase.txt")) {
                Tensor t = Tensor.allocate(arena, DType.F32, Shape.of(3, H, W));
                t.copyFrom(input);
                float v = Float.parseFloat(row[5]);
                RandomErasing.erase(t, Integer.parseInt(row[1]), Integer.parseInt(row[2]), Integer.parseInt(row[3]),
                        Integer.parseInt(row[4]), new float[] {v, v, v});
                assertThat(t.toFloatArray()).as(row[0]).containsExactly(Fixtures.floats("augment/" + row[0] + ".f32"));
            }
        }
    }
}
