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

/**
 * {@link AugMix}'s {@code fill} against torchvision 0.14 (fixtures from
 * make_augmix_fill_fixtures.py): the warps' tensor forms with a fill colour, and whole mixes.
 */
class AugMixFillTest {

    @Test
    void theWarpsWithAFillMatchTorchvisionsTensorForm() {
        byte[] all = Fixtures.bytes("augment/augmix_fill_ops.rgb");
        byte[] input = Fixtures.bytes("augment/augmix_fill_in.rgb");
        List<String> failures = new ArrayList<>();
        int cases = 0;
        int unlikeNone = 0;
        for (String[] row : Fixtures.table("augment/augmix_fill_ops.txt")) {
            PolicyOp op = PolicyOp.named(row[0]);
            double magnitude = Integer.parseInt(row[2]) * op.augMixMagnitude(10, Integer.parseInt(row[1]), 20, 16);
            Interpolation interpolation = row[3].equals("bilinear") ? Interpolation.BILINEAR : Interpolation.NEAREST;
            Fill fill = fill(row[4]);
            int offset = Integer.parseInt(row[5]);
            Tile tile = Tile.of(20, 16, input);
            op.applyTensor(tile, magnitude, interpolation, fill);
            byte[] expected = Arrays.copyOfRange(all, offset, offset + input.length);
            if (!Arrays.equals(tile.toArray(), expected)) {
                failures.add(String.join(" ", row) + ": max " + Fixtures.maxDiff(tile.toArray(), expected) + ", "
                        + AugMixParityTest.differing(tile.toArray(), expected) + " values");
            }
            Tile none = Tile.of(20, 16, input);
            op.applyTensor(none, magnitude, interpolation, Fill.NONE);
            unlikeNone += Arrays.equals(none.toArray(), expected) ? 0 : 1;
            cases++;
        }
        assertThat(cases).isEqualTo(100);
        assertThat(failures).isEmpty();
        assertThat(unlikeNone).as("cases where the fill shows").isGreaterThan(50);
    }

    @Test
    void fillZeroIsNotNoneOnBilinearEdges() {
        // torchvision blends with the sampled mask when a fill is given: fill=0 darkens an edge None leaves
        byte[] input = Fixtures.bytes("augment/augmix_fill_in.rgb");
        Tile zero = Tile.of(20, 16, input);
        Tile none = Tile.of(20, 16, input);
        PolicyOp.ROTATE.applyTensor(zero, 17.0, Interpolation.BILINEAR, Fill.of(0));
        PolicyOp.ROTATE.applyTensor(none, 17.0, Interpolation.BILINEAR, Fill.NONE);
        assertThat(zero.toArray()).isNotEqualTo(none.toArray());
        Tile zeroNearest = Tile.of(20, 16, input);
        Tile noneNearest = Tile.of(20, 16, input);
        PolicyOp.ROTATE.applyTensor(zeroNearest, 17.0, Interpolation.NEAREST, Fill.of(0));
        PolicyOp.ROTATE.applyTensor(noneNearest, 17.0, Interpolation.NEAREST, Fill.NONE);
        assertThat(zeroNearest.toArray()).isEqualTo(noneNearest.toArray());
    }

    @Test
    void theWholeMixWithAFillMatchesTorchvisionWithItsDrawsReplayed() {
        byte[] all = Fixtures.bytes("augment/augmix_fill.rgb");
        List<String> failures = new ArrayList<>();
        int cases = 0;
        for (String[] row : Fixtures.table("augment/augmix_fill.txt")) {
            byte[] actual = AugMixParityTest.replay(row, fill(row[row.length - 1]));
            int offset = Integer.parseInt(row[9]);
            byte[] expected = Arrays.copyOfRange(all, offset, offset + actual.length);
            if (!Arrays.equals(actual, expected)) {
                failures.add(String.join(" ", row) + ": max " + Fixtures.maxDiff(actual, expected));
            }
            cases++;
        }
        assertThat(cases).isEqualTo(4);
        assertThat(failures).isEmpty();
    }

    @Test
    void aFillIsWhatTorchvisionAccepts() {
        assertThat(Fill.of(128)).isEqualTo(new Fill.Color(128, 128, 128)).isEqualTo(Fill.of(new double[] {128}));
        assertThat(Fill.of(10, 200, 255)).isEqualTo(new Fill.Color(10, 200, 255));
        assertThatThrownBy(() -> Fill.of(1, 2)).hasMessageContaining("one value or one per channel")
                .hasMessageContaining("not 2 values");
        assertThatThrownBy(() -> Fill.of(300)).hasMessageContaining("0 to 255");
        assertThatThrownBy(() -> Fill.of(-1, 0, 0)).hasMessageContaining("0 to 255");
        assertThatThrownBy(() -> Fill.of(Double.NaN)).hasMessageContaining("0 to 255");
        assertThatThrownBy(() -> new AugMix().fill(null)).hasMessageContaining("Fill.NONE");
    }

    @Test
    void aFilledAugMixStaysKeyedOnTheSample() {
        AugMix op = new AugMix(10, 4, 3, 1.0, true, Interpolation.BILINEAR).fill(Fill.of(200, 30, 90));
        assertThat(op.fill()).isEqualTo(Fill.of(200, 30, 90));
        assertThat(new AugMix().fill()).isEqualTo(Fill.NONE);
        byte[] photo = Fixtures.bytes("augment/photo.rgb");
        Tile a = Tile.of(32, 24, photo);
        Tile b = Tile.of(32, 24, photo);
        op.apply(a, SampleRandom.of(3, 0, 9));
        op.apply(b, SampleRandom.of(3, 0, 9));
        assertThat(a.toArray()).isEqualTo(b.toArray()).isNotEqualTo(photo);
    }

    /** "128.0" or "10.0,200.0,255.0", as the script writes a fill. */
    private static Fill fill(String text) {
        return Fill.of(Arrays.stream(text.split(",")).mapToDouble(Double::parseDouble).toArray());
    }
}
