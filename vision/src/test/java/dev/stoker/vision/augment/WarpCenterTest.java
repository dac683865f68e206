package dev.stoker.vision.augment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.vision.Fixtures;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rotations and affine warps about a given {@link Center} against torchvision 0.14 / Pillow (make_warp_fill_fixtures.py). */
class WarpCenterTest {

    @Test
    void warpsAboutAPointMatchPillow() {
        byte[] all = Fixtures.bytes("augment/warp_center.rgb");
        byte[] input = Fixtures.bytes("augment/augmix_fill_in.rgb");
        List<String> failures = new ArrayList<>();
        int cases = 0;
        for (String[] row : Fixtures.table("augment/warp_center.txt")) {
            Interpolation interpolation = row[1].equals("bilinear") ? Interpolation.BILINEAR : Interpolation.NEAREST;
            Center center = Center.at(Double.parseDouble(row[2]), Double.parseDouble(row[3]));
            Tile tile = Tile.of(20, 16, input);
            switch (row[0]) {
                case "rotate30" -> Warp.rotate(tile, 30, interpolation, Fill.NONE, center);
                case "rotate180" -> Warp.rotate(tile, 180, interpolation, Fill.NONE, center);
                case "rotate0" -> Warp.rotate(tile, 0, interpolation, Fill.NONE, center);
                case "affine" -> Warp.affine(tile, 15, 3, -2, 1.1, 5, 3, interpolation, Fill.NONE, center);
                default -> throw new AssertionError(row[0]);
            }
            int offset = Integer.parseInt(row[4]);
            byte[] expected = Arrays.copyOfRange(all, offset, offset + input.length);
            if (!Arrays.equals(tile.toArray(), expected)) {
                failures.add(String.join(" ", row) + ": max " + Fixtures.maxDiff(tile.toArray(), expected));
            }
            cases++;
        }
        assertThat(cases).isEqualTo(32);
        assertThat(failures).isEmpty();
    }

    @Test
    void theRandomOpsTurnAboutTheirCenter() {
        byte[] all = Fixtures.bytes("augment/warp_center.rgb");
        byte[] input = Fixtures.bytes("augment/augmix_fill_in.rgb");
        for (String[] row : Fixtures.table("augment/warp_center.txt")) {
            if (!row[0].equals("rotate30") || !row[1].equals("nearest") || !row[2].equals("5")) {
                continue;
            }
            Tile tile = Tile.of(20, 16, input);
            new RandomRotation(30, 30).center(Center.at(5, 7)).apply(tile, SampleRandom.of(1, 0, 0));
            int offset = Integer.parseInt(row[4]);
            assertThat(tile.toArray()).isEqualTo(Arrays.copyOfRange(all, offset, offset + input.length));
        }
        Tile middle = Tile.of(20, 16, input);
        Tile corner = Tile.of(20, 16, input);
        RandomAffine.of(20, 20).apply(middle, SampleRandom.of(1, 0, 0));
        RandomAffine.of(20, 20).center(Center.at(0, 0)).apply(corner, SampleRandom.of(1, 0, 0));
        assertThat(corner.toArray()).isNotEqualTo(middle.toArray());
        assertThat(RandomAffine.of(5).center()).isEqualTo(Center.IMAGE);
        assertThatThrownBy(() -> Center.at(Double.NaN, 0)).hasMessageContaining("finite");
    }
}
