package dev.stoker.vision.augment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.Fixtures;
import dev.stoker.vision.transform.PixelOp;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;
import java.lang.foreign.Arena;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The Random* ops: probability 0 keeps the image, 1 applies the functional form; ColorJitter's draws and order. */
class PixelOpsTest {
    private static final byte[] PHOTO = Fixtures.bytes("augment/photo.rgb");

    private static Tile photo() {
        return Tile.of(32, 24, PHOTO);
    }

    private static byte[] with(Consumer<Tile> f) {
        Tile t = photo();
        f.accept(t);
        return t.toArray();
    }

    private static byte[] with(PixelOp op, SampleRandom r) {
        Tile t = photo();
        op.apply(t, r);
        return t.toArray();
    }

    @Test
    void probabilityZeroKeepsAndOneApplies() {
        record Case(PixelOp never, PixelOp always, Consumer<Tile> form) {}
        List<Case> cases = List.of(
                new Case(new RandomGrayscale(0), new RandomGrayscale(1), Adjust::grayscale),
                new Case(new RandomSolarize(100, 0), new RandomSolarize(100, 1), t -> Adjust.solarize(t, 100)),
                new Case(new RandomPosterize(3, 0), new RandomPosterize(3, 1), t -> Adjust.posterize(t, 3)),
                new Case(new RandomAutocontrast(0), new RandomAutocontrast(1), Adjust::autocontrast),
                new Case(new RandomEqualize(0), new RandomEqualize(1), Adjust::equalize),
                new Case(new RandomAdjustSharpness(2, 0), new RandomAdjustSharpness(2, 1), t -> Adjust.sharpness(t, 2)));
        for (Case c : cases) {
            assertThat(with(c.never(), SampleRandom.of(1, 0, 0))).as("%s", c.never()).isEqualTo(PHOTO);
            assertThat(with(c.always(), SampleRandom.of(1, 0, 0))).as("%s", c.always()).isEqualTo(with(c.form()));
        }
    }

    @Test
    void colorJitterDrawsAPermutationThenItsFactorsAndAppliesThemInThatOrder() {
        ColorJitter jitter = new ColorJitter(0.4, 0.4, 0.4, 0.1);
        for (long sample = 0; sample < 30; sample++) {
            SampleRandom r = SampleRandom.of(9, 0, sample);
            int[] order = {0, 1, 2, 3};
            for (int i = 3; i > 0; i--) {
                int j = (int) r.below(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            double b = r.uniform(0.6, 1.4);
            double c = r.uniform(0.6, 1.4);
            double s = r.uniform(0.6, 1.4);
            double h = r.uniform(-0.1, 0.1);
            Tile expected = photo();
            for (int op : order) {
                switch (op) {
                    case 0 -> Adjust.brightness(expected, b);
                    case 1 -> Adjust.contrast(expected, c);
                    case 2 -> Adjust.saturation(expected, s);
                    default -> Adjust.hue(expected, h);
                }
            }
            assertThat(with(jitter, SampleRandom.of(9, 0, sample))).isEqualTo(expected.toArray());
        }
    }

    @Test
    void colorJitterOffDrawsNothingAndChangesNothing() {
        ColorJitter off = new ColorJitter(0, 0, 0, 0);
        SampleRandom r = SampleRandom.of(2, 0, 0);
        assertThat(with(off, r)).isEqualTo(PHOTO);
        SampleRandom fresh = SampleRandom.of(2, 0, 0);
        for (int i = 0; i < 3; i++) {
            fresh.nextLong();    // the permutation's three draws, nothing more
        }
        assertThat(r.nextLong()).isEqualTo(fresh.nextLong());
    }

    @Test
    void refusesTorchvisionsInvalidArguments() {
        assertThatThrownBy(() -> new ColorJitter(-0.1, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ColorJitter(0, 0, 0, 0.6)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GaussianBlur(4)).hasMessageContaining("odd");
        assertThatThrownBy(() -> new RandomPosterize(9)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RandomGrayscale(1.5)).hasMessageContaining("[0, 1]");
        assertThatThrownBy(() -> new RandomErasing(0.5, 0.5, 0.1, 0.3, 3.3, new float[3]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Adjust.gaussianBlur(Tile.of(4, 4, new byte[48]), 9, 1.0))
                .hasMessageContaining("reflect");
    }

    @Test
    void erasingWithNoiseFillsItsRectangleWithStandardNormalValues() {
        try (Arena arena = Arena.ofConfined()) {
            Tensor slot = Tensor.allocate(arena, DType.F32, Shape.of(3, 64, 64));
            slot.copyFrom(new float[3 * 64 * 64]);
            RandomErasing noise = RandomErasing.withNoise(1.0);
            noise.apply(slot, SampleRandom.of(3, 0, 1));
            float[] v = slot.toFloatArray();
            int erased = 0;
            double sum = 0;
            double sq = 0;
            for (float f : v) {
                if (f != 0f) {
                    erased++;
                    sum += f;
                    sq += f * f;
                }
            }
            assertThat(erased).isGreaterThan((int) (0.02 * v.length) - 10);
            double mean = sum / erased;
            assertThat(mean).isBetween(-0.15, 0.15);
            assertThat(sq / erased - mean * mean).isBetween(0.8, 1.2);
            assertThat(noise.toString()).contains("value=random");
            assertThat(noise).isEqualTo(RandomErasing.withNoise(1.0));
        }
    }
}
