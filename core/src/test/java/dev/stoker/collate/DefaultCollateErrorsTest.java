package dev.stoker.collate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DefaultCollateErrorsTest {
    private final TestMemory memory = TestMemory.arena();
    private final Arena samples = Arena.ofConfined();
    private final DefaultCollate collate = DefaultCollate.instance();

    @AfterEach
    void close() {
        memory.close();
        samples.close();
    }

    record Image(Tensor image, long label) {}

    private Image image(long... shape) {
        return new Image(Tensor.allocate(samples, DType.F32, Shape.of(shape)), 1);
    }

    @Test
    void shapeMismatchNamesTheFieldTheSampleAndBothShapes() {
        List<Image> batch = new ArrayList<>();
        for (int i = 0; i < 5; i++) batch.add(image(3, 224, 224));
        batch.add(image(3, 200, 224));
        assertThatThrownBy(() -> collate.collate(batch, memory))
                .isInstanceOf(CollateException.class)
                .hasMessage("cannot stack field 'image': sample 0 has shape [3, 224, 224] but sample 5 has shape"
                        + " [3, 200, 224]; use PadCollate for variable-length samples");
        assertThat(memory.allocated()).as("nothing allocated for a batch that cannot be stacked").isEmpty();
    }

    @Test
    void arrayLengthMismatchAtTheTopLevel() {
        assertThatThrownBy(() -> collate.collate(List.of(new long[3], new long[3], new long[4]), memory))
                .isInstanceOf(CollateException.class)
                .hasMessageContaining("cannot stack the samples")
                .hasMessageContaining("sample 0 has shape [3] but sample 2 has shape [4]")
                .hasMessageContaining("PadCollate");
    }

    @Test
    void dtypeMismatchNamesBothTypes() {
        Tensor a = Tensor.allocate(samples, DType.F32, Shape.of(2));
        Tensor b = Tensor.allocate(samples, DType.F16, Shape.of(2));
        assertThatThrownBy(() -> collate.collate(List.of(a, a, b), memory))
                .isInstanceOf(CollateException.class)
                .hasMessageStartingWith("cannot stack the samples: sample 0 is f32 but sample 2 is f16");
    }

    @Test
    void pathsThroughListsNameTheElement() {
        Map<String, Object> s0 = Map.of("pair", List.of(new float[2], 1L));
        Map<String, Object> s1 = Map.of("pair", List.of(new float[3], 2L));
        assertThatThrownBy(() -> collate.collate(List.of(s0, s1), memory))
                .isInstanceOf(CollateException.class)
                .hasMessageStartingWith("cannot stack element 0 of field 'pair': sample 0 has shape [2] but sample 1"
                        + " has shape [3]");
    }

    @Test
    void missingAndExtraMapKeysAreNamedWithTheSample() {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("x", 1L);
        a.put("y", 2L);
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("x", 1L);
        b.put("z", 3L);
        assertThatThrownBy(() -> collate.collate(List.of(a, a, b), memory))
                .isInstanceOf(CollateException.class)
                .hasMessageStartingWith("cannot collate the samples: sample 2 has keys")
                .hasMessageContaining("missing [y]")
                .hasMessageContaining("extra [z]");
        Map<String, Object> onlyX = Map.of("x", 1L);
        assertThatThrownBy(() -> collate.collate(List.of(Map.of("m", a), Map.of("m", onlyX)), memory))
                .hasMessageStartingWith("cannot collate field 'm': sample 1")
                .hasMessageContaining("missing [y]")
                .hasMessageNotContaining("extra");
    }

    @Test
    void listsOfDifferentLengthsAreRejected() {
        assertThatThrownBy(() -> collate.collate(List.of(List.of(1L, 2L), List.of(1L)), memory))
                .isInstanceOf(CollateException.class)
                .hasMessageContaining("sample 0 has 2 elements but sample 1 has 1");
    }

    @Test
    void unsupportedTypeIsNamedWithThePath() {
        assertThatThrownBy(() -> collate.collate(List.of(Map.of("when", Optional.of(1))), memory))
                .isInstanceOf(CollateException.class)
                .hasMessageStartingWith("cannot collate field 'when': no collator for type java.util.Optional")
                .hasMessageContaining("register");
        assertThatThrownBy(() -> collate.collate(List.<Object>of((Object) new Object[] {1}), memory))
                .hasMessageContaining("no collator for type java.lang.Object[]");
        assertThatThrownBy(() -> collate.collate(List.of('c'), memory))
                .hasMessageContaining("java.lang.Character");
    }

    @Test
    void nullsAreNamedWithTheSample() {
        assertThatThrownBy(() -> collate.collate(Arrays.asList(1L, null), memory))
                .isInstanceOf(CollateException.class)
                .hasMessage("cannot collate the samples: sample 1 is null");
        assertThatThrownBy(() -> collate.collate(Arrays.asList((Object) null), memory))
                .hasMessage("cannot collate the samples: sample 0 is null");
        record Named(String name) {}
        assertThatThrownBy(() -> collate.collate(List.of(new Named("a"), new Named(null)), memory))
                .hasMessage("cannot collate field 'name': sample 1 is null");
    }

    @Test
    void mixedTypesAreNamed() {
        assertThatThrownBy(() -> collate.collate(List.of(1L, 2), memory))
                .isInstanceOf(CollateException.class)
                .hasMessage("cannot collate the samples: sample 0 is a java.lang.Long but sample 1 is a java.lang.Integer");
        assertThatThrownBy(() -> collate.collate(List.of(new float[1], new double[1]), memory))
                .hasMessageContaining("sample 0 is a float[] but sample 1 is a double[]");
        record A(long x) {}
        record B(long x) {}
        assertThatThrownBy(() -> collate.collate(List.of(new A(1), new B(1)), memory))
                .hasMessageContaining("sample 1 is a")
                .hasMessageContaining("B");
    }

    @Test
    void anEmptyBatchIsAnError() {
        assertThatThrownBy(() -> collate.collate(List.of(), memory))
                .isInstanceOf(CollateException.class)
                .hasMessageContaining("no samples");
    }
}
