package dev.stoker.vision.augment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.vision.Fixtures;
import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The PIL-path warps with a {@link Fill} (Pillow's {@code fillcolor}) against torchvision 0.14 /
 * Pillow (fixtures from make_warp_fill_fixtures.py), and the ops that take a fill passing it on.
 */
class WarpFillTest {
    private static final int[][] CORNERS = {{0, 0}, {19, 0}, {19, 15}, {0, 15}};
    private static final int[][] MOVED = {{3, 2}, {17, 1}, {18, 13}, {1, 15}};

    @Test
    void everyWarpWithAFillMatchesPillow() {
        byte[] all = Fixtures.bytes("augment/warp_fill.rgb");
        byte[] input = Fixtures.bytes("augment/augmix_fill_in.rgb");
        List<String> failures = new ArrayList<>();
        int cases = 0;
        for (String[] row : Fixtures.table("augment/warp_fill.txt")) {
            Interpolation interpolation = row[1].equals("bilinear") ? Interpolation.BILINEAR : Interpolation.NEAREST;
            Fill fill = Fill.of(Arrays.stream(row[2].split(",")).mapToDouble(Double::parseDouble).toArray());
            Tile tile = Tile.of(20, 16, input);
            switch (row[0]) {
                case "rotate30" -> Warp.rotate(tile, 30, interpolation, fill);
                case "rotate90" -> Warp.rotate(tile, 90, interpolation, fill);
                case "affine" -> Warp.affine(tile, 15, 3, -2, 1.1, 5, 3, interpolation, fill);
                case "translate" -> Warp.translate(tile, 5, -3, interpolation, fill);
                case "perspective" -> Warp.perspective(tile, CORNERS, MOVED, interpolation, fill);
                case "shearx" -> PolicyOp.SHEAR_X.apply(tile, 0.3, interpolation, fill);
                default -> throw new AssertionError(row[0]);
            }
            int offset = Integer.parseInt(row[3]);
            byte[] expected = Arrays.copyOfRange(all, offset, offset + input.length);
            if (!Arrays.equals(tile.toArray(), expected)) {
                failures.add(String.join(" ", row) + ": max " + Fixtures.maxDiff(tile.toArray(), expected));
            }
            cases++;
        }
        assertThat(cases).isEqualTo(36);
        assertThat(failures).isEmpty();
    }

    @Test
    void aFixedRotationWithAFillIsTorchvisionsRotate() {
        byte[] all = Fixtures.bytes("augment/warp_fill.rgb");
        byte[] input = Fixtures.bytes("augment/augmix_fill_in.rgb");
        for (String[] row : Fixtures.table("augment/warp_fill.txt")) {
            if (row[0].equals("rotate30") && row[2].equals("10.0,200.0,255.0")) {
                Interpolation interpolation = row[1].equals("bilinear") ? Interpolation.BILINEAR : Interpolation.NEAREST;
                Tile tile = Tile.of(20, 16, input);
                new RandomRotation(30, 30, interpolation).fill(Fill.of(10, 200, 255)).apply(tile, SampleRandom.of(1, 0, 0));
                int offset = Integer.parseInt(row[3]);
                assertThat(tile.toArray()).isEqualTo(Arrays.copyOfRange(all, offset, offset + input.length));
            }
        }
    }

    @Test
    void theOpsThatWarpPassTheirFillOn() {
        byte[] input = Fixtures.bytes("augment/augmix_fill_in.rgb");
        Fill color = Fill.of(1, 2, 3);
        // one op per image, so what a warp uncovers is the fill and nothing after it changes it
        Map<String, PixelOp[]> ops = Map.of(
                "TrivialAugmentWide", new PixelOp[] {new TrivialAugmentWide(), new TrivialAugmentWide().fill(color)},
                "RandAugment", new PixelOp[] {new RandAugment(1, 20, 31, Interpolation.BILINEAR),
                    new RandAugment(1, 20, 31, Interpolation.BILINEAR).fill(color)},
                "RandomRotation", new PixelOp[] {new RandomRotation(40), new RandomRotation(40).fill(color)},
                "RandomAffine", new PixelOp[] {RandomAffine.of(20).translate(0.2, 0.2),
                    RandomAffine.of(20).translate(0.2, 0.2).fill(color)},
                "RandomPerspective", new PixelOp[] {new RandomPerspective(0.6, 1, Interpolation.BILINEAR),
                    new RandomPerspective(0.6, 1, Interpolation.BILINEAR).fill(color)});
        for (var e : ops.entrySet()) {
            int filled = 0;
            for (long sample = 0; sample < 40; sample++) {
                Tile black = Tile.of(20, 16, input);
                Tile tinted = Tile.of(20, 16, input);
                e.getValue()[0].apply(black, SampleRandom.of(5, 0, sample));
                e.getValue()[1].apply(tinted, SampleRandom.of(5, 0, sample));
                byte[] b = black.toArray();
                byte[] t = tinted.toArray();
                for (int i = 0; i < b.length; i += 3) {
                    if (b[i] != t[i] || b[i + 1] != t[i + 1] || b[i + 2] != t[i + 2]) {
                        assertThat(new int[] {b[i], b[i + 1], b[i + 2], t[i], t[i + 1], t[i + 2]})
                                .as(e.getKey() + " sample " + sample + " pixel " + i / 3)
                                .containsExactly(0, 0, 0, 1, 2, 3);
                        filled++;
                    }
                }
            }
            assertThat(filled).as(e.getKey() + ": pixels filled").isPositive();
        }
        Tile black = Tile.of(20, 16, input);
        Tile tinted = Tile.of(20, 16, input);
        int differ = 0;
        for (long sample = 0; sample < 60; sample++) {
            new AutoAugment().apply(black, SampleRandom.of(5, 0, sample));
            new AutoAugment().fill(color).apply(tinted, SampleRandom.of(5, 0, sample));
            differ += Arrays.equals(black.toArray(), tinted.toArray()) ? 0 : 1;
        }
        assertThat(differ).as("AutoAugment's rotations and shears filled").isPositive();
    }
}
