package dev.stoker.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SyntheticDatasetTest {

    /** Counts the sleeps instead of sleeping. */
    private static final class CountingSleeper implements SyntheticDataset.Sleeper {
        final List<Duration> sleeps = new ArrayList<>();

        @Override
        public void sleep(Duration duration) {
            sleeps.add(duration);
        }
    }

    @Test
    void defaultsAreW1sShapes() {
        SyntheticDataset ds = SyntheticDataset.builder().build();
        assertThat(ds.size()).isEqualTo(512);
        SyntheticSample s = ds.get(0);
        assertThat(s.image().shape()).isEqualTo(Shape.of(3, 224, 224));
        assertThat(s.image().dtype()).isEqualTo(DType.F32);
        assertThat(s.image().segment().isNative()).isFalse(); // heap-backed
        assertThat(s.label()).isBetween(0L, 999L);
        assertThat(ds.delay()).isEqualTo(Duration.ZERO);
    }

    @Test
    void samplesArePureFunctionsOfSeedAndIndex() {
        SyntheticDataset a = SyntheticDataset.builder().size(20).shape(Shape.of(2, 5)).seed(11).build();
        SyntheticDataset b = SyntheticDataset.builder().size(20).shape(Shape.of(2, 5)).seed(11).build();
        SyntheticDataset c = SyntheticDataset.builder().size(20).shape(Shape.of(2, 5)).seed(12).build();
        List<SyntheticSample> batch = b.getBatch(new long[] {19, 3, 3});
        assertThat(batch.get(0).image().toFloatArray()).containsExactly(a.get(19).image().toFloatArray());
        assertThat(batch.get(1).image().toFloatArray()).containsExactly(a.get(3).image().toFloatArray());
        assertThat(batch.get(2).label()).isEqualTo(a.get(3).label());
        assertThat(a.get(3).image().toFloatArray()).isNotEqualTo(a.get(4).image().toFloatArray());
        assertThat(c.get(3).image().toFloatArray()).isNotEqualTo(a.get(3).image().toFloatArray());
    }

    @Test
    void labelsCoverTheClassesUniformly() {
        SyntheticDataset ds = SyntheticDataset.builder().size(20_000).shape(Shape.of(1)).numClasses(10).build();
        int[] counts = new int[10];
        for (long i = 0; i < ds.size(); i++) {
            counts[(int) ds.label(i)]++;
        }
        for (int c : counts) {
            assertThat(c).isBetween(1800, 2200);
        }
        assertThat(ds.get(5).label()).isEqualTo(ds.label(5));
    }

    @Test
    void getSleepsOncePerSampleAndGetBatchOncePerBatch() {
        CountingSleeper sleeper = new CountingSleeper();
        SyntheticDataset ds = SyntheticDataset.builder().size(64).shape(Shape.of(4)).delay(Duration.ofMillis(5))
                .sleeper(sleeper).build();
        ds.get(0);
        ds.get(1);
        assertThat(sleeper.sleeps).hasSize(2).containsOnly(Duration.ofMillis(5));
        List<SyntheticSample> batch = ds.getBatch(new long[] {0, 1, 2, 3, 4, 5, 6, 7});
        assertThat(batch).hasSize(8);
        assertThat(sleeper.sleeps).hasSize(3);
        ds.getBatch(new long[] {9, 10});
        assertThat(sleeper.sleeps).hasSize(4);
    }

    @Test
    void unbatchedGetBatchSleepsPerSample() {
        CountingSleeper sleeper = new CountingSleeper();
        SyntheticDataset ds = SyntheticDataset.builder().size(64).shape(Shape.of(4)).delay(Duration.ofMillis(5))
                .batched(false).sleeper(sleeper).build();
        ds.getBatch(new long[] {0, 1, 2, 3, 4});
        assertThat(sleeper.sleeps).hasSize(5);
        assertThat(ds.isBatched()).isFalse();
    }

    @Test
    void noDelayNoSleep() {
        CountingSleeper sleeper = new CountingSleeper();
        SyntheticDataset ds = SyntheticDataset.builder().size(8).shape(Shape.of(4)).sleeper(sleeper).build();
        ds.get(0);
        ds.getBatch(new long[] {1, 2});
        assertThat(sleeper.sleeps).isEmpty();
    }

    @Test
    void batchWithABadIndexFailsBeforeSleeping() {
        CountingSleeper sleeper = new CountingSleeper();
        SyntheticDataset ds = SyntheticDataset.builder().size(8).shape(Shape.of(4)).delay(Duration.ofMillis(1))
                .sleeper(sleeper).build();
        assertThatThrownBy(() -> ds.getBatch(new long[] {1, 8}))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("SyntheticDataset")
                .hasMessageContaining("index 8")
                .hasMessageContaining("[0, 8)");
        assertThatThrownBy(() -> ds.get(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(sleeper.sleeps).isEmpty();
    }

    @Test
    void interruptedSleepFailsAndKeepsTheFlag() {
        SyntheticDataset ds = SyntheticDataset.builder().size(8).shape(Shape.of(4)).delay(Duration.ofMillis(1))
                .sleeper(d -> {
                    throw new InterruptedException();
                }).build();
        try {
            assertThatThrownBy(() -> ds.get(0)).hasMessageContaining("interrupted");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void otherDtypesAreFilled() {
        for (DType t : new DType[] {DType.U8, DType.I64, DType.F16, DType.BF16, DType.F64, DType.I32, DType.BOOL}) {
            SyntheticDataset ds = SyntheticDataset.builder().size(4).shape(Shape.of(64, 64)).dtype(t).numClasses(50)
                    .seed(3).build();
            Tensor image = ds.get(2).image();
            assertThat(image.dtype()).isEqualTo(t);
            assertThat(image.shape()).isEqualTo(Shape.of(64, 64));
            Set<Double> distinct = new HashSet<>();
            for (long i = 0; i < image.elements(); i++) {
                distinct.add(image.getDouble(i));
            }
            assertThat(distinct.size()).as("distinct values of %s", t).isGreaterThan(1);
            if (t == DType.I64 || t == DType.I32) {
                assertThat(distinct).allMatch(v -> v >= 0 && v < 50);
            }
            if (t == DType.U8) {
                assertThat(distinct.size()).isGreaterThan(200);
            }
            // reproducible
            assertThat(ds.get(2).image().toDoubleArray()).containsExactly(image.toDoubleArray());
        }
    }

    @Test
    void halfPrecisionIsTheFloatNoiseRounded() {
        SyntheticDataset f32 = SyntheticDataset.builder().size(2).shape(Shape.of(100)).seed(9).build();
        SyntheticDataset bf16 = SyntheticDataset.builder().size(2).shape(Shape.of(100)).seed(9).dtype(DType.BF16)
                .build();
        float[] exact = f32.get(1).image().toFloatArray();
        float[] rounded = bf16.get(1).image().toFloatArray();
        for (int i = 0; i < exact.length; i++) {
            assertThat(rounded[i]).isCloseTo(exact[i], org.assertj.core.api.Assertions.within(0.02f));
        }
    }

    @Test
    void writeImageWritesWhatGetReturns() {
        for (DType t : new DType[] {DType.F32, DType.F16, DType.I64}) {
            SyntheticDataset ds = SyntheticDataset.builder().size(5).shape(Shape.of(3, 7)).dtype(t).seed(1).build();
            MemorySegment slot = MemorySegment.ofArray(new byte[(int) ds.imageBytes()]);
            ds.writeImage(4, slot);
            assertThat(new Tensor(slot, t, ds.shape()).toDoubleArray())
                    .containsExactly(ds.get(4).image().toDoubleArray());
            assertThatThrownBy(() -> ds.writeImage(4, MemorySegment.ofArray(new byte[3])))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void rejectsBadSettings() {
        assertThatThrownBy(() -> SyntheticDataset.builder().size(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SyntheticDataset.builder().numClasses(0))
                .hasMessageContaining("numClasses");
        assertThatThrownBy(() -> SyntheticDataset.builder().delay(Duration.ofMillis(-1)))
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> SyntheticDataset.builder().shape(Shape.of(1 << 16, 1 << 16)))
                .hasMessageContaining("Java array");
    }
}
