package dev.stoker.vision.augment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.vision.Fixtures;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link AugMix} and the tensor forms of its ops ({@link TensorOps}) against torchvision 0.14 on
 * uint8 tensors (fixtures from make_augmix_fixtures.py): exact, every op and every whole AugMix
 * with its draws replayed.
 */
class AugMixParityTest {

    @Test
    void everyOpOfTheSpaceMatchesTorchvisionsTensorForm() {
        byte[] all = Fixtures.bytes("augment/augmix_ops.rgb");
        List<String> failures = new ArrayList<>();
        int cases = 0;
        for (String[] row : Fixtures.table("augment/augmix_ops.txt")) {
            int w = Integer.parseInt(row[1]);
            int h = Integer.parseInt(row[2]);
            PolicyOp op = PolicyOp.named(row[3]);
            int bin = Integer.parseInt(row[4]);
            int sign = Integer.parseInt(row[5]);
            Interpolation interpolation = row[6].equals("bilinear") ? Interpolation.BILINEAR : Interpolation.NEAREST;
            int offset = Integer.parseInt(row[7]);
            Tile tile = Tile.of(w, h, Fixtures.bytes("augment/" + row[0] + ".rgb"));
            double magnitude = op.hasMagnitudes() ? sign * op.augMixMagnitude(10, bin, w, h) : 0.0;
            op.applyTensor(tile, magnitude, interpolation, Fill.NONE);
            byte[] expected = Arrays.copyOfRange(all, offset, offset + 3 * w * h);
            int max = Fixtures.maxDiff(tile.toArray(), expected);
            if (max != 0) {
                failures.add(String.join(" ", row) + ": max " + max + ", " + differing(tile.toArray(), expected) + " values");
            }
            cases++;
        }
        assertThat(cases).isEqualTo(276);
        assertThat(failures).isEmpty();
    }

    @Test
    void theWholeMixMatchesTorchvisionWithItsDrawsReplayed() {
        byte[] all = Fixtures.bytes("augment/augmix.rgb");
        List<String> failures = new ArrayList<>();
        int cases = 0;
        for (String[] row : Fixtures.table("augment/augmix.txt")) {
            byte[] actual = replay(row, Fill.NONE);
            int offset = Integer.parseInt(row[9]);
            byte[] expected = Arrays.copyOfRange(all, offset, offset + actual.length);
            int max = Fixtures.maxDiff(actual, expected);
            if (max != 0) {
                failures.add(String.join(" ", row) + ": max " + max + ", " + differing(actual, expected) + " values");
            }
            cases++;
        }
        assertThat(cases).isEqualTo(12);
        assertThat(failures).isEmpty();
    }

    @Test
    void theMagnitudeTablesAreAugMixs() {
        // _augmentation_space(10, (24, 32)): translate to a third of the side, posterize 4 bits down to 0
        assertThat(PolicyOp.TRANSLATE_X.augMixMagnitude(10, 9, 32, 24)).isEqualTo((double) (float) (32 / 3.0));
        assertThat(PolicyOp.TRANSLATE_Y.augMixMagnitude(10, 9, 32, 24)).isEqualTo(8.0);
        int[] bits = new int[10];
        for (int b = 0; b < 10; b++) {
            bits[b] = (int) PolicyOp.POSTERIZE.augMixMagnitude(10, b, 32, 24);
        }
        assertThat(bits).containsExactly(4, 4, 3, 3, 2, 2, 1, 1, 0, 0);
        assertThat(PolicyOp.ROTATE.augMixMagnitude(10, 9, 32, 24)).isEqualTo(30.0);
        assertThat(AugMix.space(false)).hasSize(9);
        assertThat(AugMix.space(true)).hasSize(13).endsWith(PolicyOp.SHARPNESS);
    }

    @Test
    void drawsAreKeyedOnTheSampleAndTheDefaultsAreTorchvisions() {
        AugMix op = new AugMix();
        assertThat(op).isEqualTo(new AugMix(3, 3, -1, 1.0, true, Interpolation.BILINEAR));
        byte[] photo = Fixtures.bytes("augment/photo.rgb");
        Tile a = Tile.of(32, 24, photo);
        Tile b = Tile.of(32, 24, photo);
        op.apply(a, SampleRandom.of(7, 1, 42));
        op.apply(b, SampleRandom.of(7, 1, 42));
        assertThat(a.toArray()).isEqualTo(b.toArray()).isNotEqualTo(photo);
        int same = 0;
        for (long i = 0; i < 20; i++) {
            Tile c = Tile.of(32, 24, photo);
            op.apply(c, SampleRandom.of(7, 1, i));
            same += Arrays.equals(c.toArray(), a.toArray()) ? 1 : 0;
        }
        assertThat(same).isLessThanOrEqualTo(1);    // sample 42 is not among them; another sample's mix differs
    }

    @Test
    void badParametersAreRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new AugMix(0, 3, -1, 1.0, true, Interpolation.NEAREST))
                .hasMessageContaining("severity");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new AugMix(3, 0, -1, 1.0, true, Interpolation.NEAREST))
                .hasMessageContaining("chain");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new AugMix(3, 3, -1, 0.0, true, Interpolation.NEAREST))
                .hasMessageContaining("alpha");
    }

    /** A row of augmix.txt (or augmix_fill.txt) replayed: its input mixed with its draws and {@code fill}. */
    static byte[] replay(String[] row, Fill fill) {
        int w = Integer.parseInt(row[1]);
        int h = Integer.parseInt(row[2]);
        int width = Integer.parseInt(row[4]);
        boolean allOps = row[7].equals("1");
        Interpolation interpolation = row[8].equals("bilinear") ? Interpolation.BILINEAR : Interpolation.NEAREST;
        float[] m = {Float.parseFloat(row[10]), Float.parseFloat(row[11])};
        float[] weights = new float[width];
        for (int i = 0; i < width; i++) {
            weights[i] = Float.parseFloat(row[12 + i]);
        }
        PolicyOp[] space = AugMix.space(allOps);
        PolicyOp[][] ops = new PolicyOp[width][];
        double[][] magnitudes = new double[width][];
        for (int c = 0; c < width; c++) {
            String[] steps = row[12 + width + c].split(",");
            ops[c] = new PolicyOp[steps.length];
            magnitudes[c] = new double[steps.length];
            for (int k = 0; k < steps.length; k++) {
                String[] s = steps[k].split(":");
                PolicyOp op = space[Integer.parseInt(s[0])];
                double mag = op.hasMagnitudes() ? op.augMixMagnitude(10, Integer.parseInt(s[1]), w, h) : 0.0;
                ops[c][k] = op;
                magnitudes[c][k] = op.signed && s[2].equals("1") ? -mag : mag;
            }
        }
        Tile tile = Tile.of(w, h, Fixtures.bytes("augment/" + row[0] + ".rgb"));
        AugMix.mix(tile, m, weights, ops, magnitudes, interpolation, fill);
        return tile.toArray();
    }

    static int differing(byte[] a, byte[] b) {
        int n = 0;
        for (int i = 0; i < a.length; i++) {
            n += a[i] != b[i] ? 1 : 0;
        }
        return n;
    }
}
