package dev.stoker.collate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.testing.LogCapture;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class HumongousSamplesTest {
    private static final long MIB = 1L << 20;
    /** W3's image: 3 x 224 x 224 f32. */
    private static final long IMAGE_BYTES = 3L * 224 * 224 * 4;

    @Test
    void anImageOnTheHeapIsHumongousUnderOneMibRegionsAndSaidOnceWithTheRegionThatHoldsIt() {
        HumongousSamples hint = new HumongousSamples(() -> MIB);
        try (LogCapture log = LogCapture.of(DefaultCollate.class)) {
            assertThat(hint.note(IMAGE_BYTES, FieldPath.root().field("image"))).isTrue();
            assertThat(hint.note(IMAGE_BYTES, FieldPath.root().field("image"))).isFalse();
            assertThat(hint.note(4 * IMAGE_BYTES, FieldPath.root().field("other"))).isFalse();

            assertThat(log.records()).hasSize(1);
            assertThat(log.records().getFirst().getMessage())
                    .contains("field 'image'", IMAGE_BYTES + " bytes a sample", "1024 KiB region", "FillableDataset",
                            "-XX:G1HeapRegionSize=2m");
        }
    }

    @Test
    void arraysUnderHalfARegionAreNotSaid() {
        try (LogCapture log = LogCapture.of(DefaultCollate.class)) {
            assertThat(new HumongousSamples(() -> MIB).note(MIB / 2 - 17, FieldPath.root())).isFalse();
            assertThat(new HumongousSamples(() -> 2 * MIB).note(IMAGE_BYTES, FieldPath.root())).isFalse();
            assertThat(log.records()).isEmpty();
        }
    }

    @Test
    void withoutG1NothingIsSaidAndSmallArraysDoNotAskTheJvm() {
        AtomicInteger asked = new AtomicInteger();
        HumongousSamples hint = new HumongousSamples(() -> {
            asked.incrementAndGet();
            return 0;
        });
        assertThat(hint.note(1024, FieldPath.root())).isFalse();
        assertThat(asked).hasValue(0);
        assertThat(hint.note(64 * MIB, FieldPath.root())).isFalse();
        assertThat(hint.note(64 * MIB, FieldPath.root())).isFalse();
        assertThat(asked).hasValue(1);
    }

    @Test
    void theRegionSuggestedIsTheSmallestOfWhichTheArrayIsUnderHalf() {
        assertThat(HumongousSamples.regionFor(IMAGE_BYTES)).isEqualTo(2 * MIB);
        assertThat(HumongousSamples.regionFor(MIB - 16)).isEqualTo(4 * MIB);
        assertThat(HumongousSamples.regionFor(MIB - 17)).isEqualTo(2 * MIB);
        assertThat(HumongousSamples.regionFor(3L * 512 * 512 * 4)).isEqualTo(8 * MIB);
        assertThat(HumongousSamples.regionFor(16 * MIB)).isZero();
    }

    @Test
    void beyondTheLargestRegionOnlyTheFillPathIsSuggested() {
        HumongousSamples hint = new HumongousSamples(() -> 32 * MIB);
        try (LogCapture log = LogCapture.of(DefaultCollate.class)) {
            assertThat(hint.note(20 * MIB, FieldPath.root())).isTrue();
            assertThat(log.records()).singleElement().extracting(LogRecord::getMessage).asString()
                    .contains("the samples", "FillableDataset").doesNotContain("G1HeapRegionSize");
        }
    }

    @Test
    void theDefaultCollateSaysItForHeapTensorsAndHeapArraysButNotForNativeTensors() {
        assumeTrue(ManagementFactory.getGarbageCollectorMXBeans().stream().anyMatch(b -> b.getName().startsWith("G1 ")),
                "the JVM runs G1");
        // 17 MiB a sample: at least half of any region G1 offers (1-32 MiB), whatever this JVM chose.
        int floats = 17 << 18;
        Shape shape = Shape.of(floats);
        try (TestMemory memory = TestMemory.arena(); Arena native_ = Arena.ofConfined();
             LogCapture log = LogCapture.of(DefaultCollate.class)) {
            Tensor nativeSample = Tensor.allocate(native_, DType.F32, shape);
            DefaultCollate.builder().build().collate(List.of(nativeSample, nativeSample), memory);
            assertThat(log.records()).isEmpty();

            Tensor heapSample = new Tensor(MemorySegment.ofArray(new float[floats]), DType.F32, shape);
            record Sample(Tensor image, long label) {}
            DefaultCollate collate = DefaultCollate.builder().build();
            collate.collate(List.of(new Sample(heapSample, 1), new Sample(heapSample, 2)), memory);
            collate.collate(List.of(new Sample(heapSample, 3), new Sample(heapSample, 4)), memory);
            assertThat(log.records()).singleElement().extracting(LogRecord::getMessage).asString()
                    .contains("field 'image'", (4L * floats) + " bytes a sample");

            float[] array = new float[floats];
            DefaultCollate.builder().build().collate(List.of(array, array), memory);
            assertThat(log.records()).hasSize(2);
            assertThat(log.records().get(1).getMessage()).contains("the samples", (4L * floats) + " bytes a sample");
        }
    }
}
