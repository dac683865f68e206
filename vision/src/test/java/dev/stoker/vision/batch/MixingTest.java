package dev.stoker.vision.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.Fixtures;
import dev.stoker.vision.transform.SampleRandom;
import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;

/** MixUp and CutMix against torch's arithmetic (augment/, make_augment_fixtures.py), and their laws. */
class MixingTest {

    private static Tensor images(Arena arena) {
        Tensor t = Tensor.allocate(arena, DType.F32, Shape.of(4, 3, 6, 5));
        t.copyFrom(Fixtures.floats("augment/batch_images.f32"));
        return t;
    }

    private static Tensor labels(Arena arena) {
        Tensor l = Tensor.allocate(arena, DType.I64, Shape.of(4));
        l.copyFrom(new long[] {0, 2, 1, 2});
        return l;
    }

    @Test
    void mixUpMatchesTorchToTheBit() {
        try (Arena arena = Arena.ofConfined()) {
            Tensor x = images(arena);
            Tensor y = Targets.oneHot(labels(arena), 3, arena);
            MixUp.mix(x, y, 0.3);
            assertThat(x.toFloatArray()).containsExactly(Fixtures.floats("augment/mixup_0p3_images.f32"));
            assertThat(y.toFloatArray()).containsExactly(Fixtures.floats("augment/mixup_0p3_targets.f32"));
        }
    }

    @Test
    void cutMixMatchesTorchToTheBit() {
        try (Arena arena = Arena.ofConfined()) {
            Tensor x = images(arena);
            Tensor y = Targets.oneHot(labels(arena), 3, arena);
            double lam = CutMix.cut(x, y, 1, 2, 4, 5);
            assertThat(lam).isEqualTo(1.0 - 9.0 / 30);
            assertThat(x.toFloatArray()).containsExactly(Fixtures.floats("augment/cutmix_1_2_4_5_images.f32"));
            assertThat(y.toFloatArray()).containsExactly(Fixtures.floats("augment/cutmix_1_2_4_5_targets.f32"));
        }
    }

    @Test
    void targetsStayDistributionsAndDrawsAreKeyedByBatch() {
        BatchOp mix = RandomChoice.of(new MixUp(0.8), new CutMix(1.0));
        try (Arena arena = Arena.ofConfined()) {
            for (long batch = 0; batch < 40; batch++) {
                Tensor x1 = images(arena);
                Tensor y1 = Targets.oneHot(labels(arena), 3, arena);
                mix.apply(x1, y1, BatchOp.random(7, 2, batch));
                Tensor x2 = images(arena);
                Tensor y2 = Targets.oneHot(labels(arena), 3, arena);
                mix.apply(x2, y2, BatchOp.random(7, 2, batch));
                assertThat(x2.toFloatArray()).containsExactly(x1.toFloatArray());
                assertThat(y2.toFloatArray()).containsExactly(y1.toFloatArray());
                float[] t = y1.toFloatArray();
                for (int i = 0; i < 4; i++) {
                    float sum = t[3 * i] + t[3 * i + 1] + t[3 * i + 2];
                    assertThat(sum).isCloseTo(1f, org.assertj.core.data.Offset.offset(1e-6f));
                    for (int k = 0; k < 3; k++) {
                        assertThat(t[3 * i + k]).isBetween(0f, 1f);
                    }
                }
            }
        }
    }

    @Test
    void betaHasItsMean() {
        for (double alpha : new double[] {0.2, 0.8, 1.0, 3.0}) {
            SampleRandom r = SampleRandom.of(1, 0, (long) (alpha * 10));
            double sum = 0;
            double sq = 0;
            int n = 20_000;
            for (int i = 0; i < n; i++) {
                double v = Beta.sample(alpha, r);
                assertThat(v).isBetween(0.0, 1.0);
                sum += v;
                sq += v * v;
            }
            double mean = sum / n;
            double var = sq / n - mean * mean;
            assertThat(mean).as("alpha %s", alpha).isCloseTo(0.5, org.assertj.core.data.Offset.offset(0.01));
            // Beta(a, a) has variance 1 / (4 (2a + 1))
            assertThat(var).as("alpha %s", alpha).isCloseTo(1 / (4 * (2 * alpha + 1)),
                    org.assertj.core.data.Offset.offset(0.005));
        }
    }

    @Test
    void refusesWhatItCannotMix() {
        try (Arena arena = Arena.ofConfined()) {
            Tensor x = images(arena);
            Tensor wrong = Tensor.allocate(arena, DType.F32, Shape.of(3, 3));
            assertThatThrownBy(() -> new MixUp().apply(x, wrong, SampleRandom.of(0, 0, 0)))
                    .hasMessageContaining("Targets.oneHot");
            Tensor bad = Tensor.allocate(arena, DType.I64, Shape.of(2));
            bad.copyFrom(new long[] {0, 5});
            assertThatThrownBy(() -> Targets.oneHot(bad, 3, arena)).hasMessageContaining("label 5");
            assertThatThrownBy(() -> new MixUp(0)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
