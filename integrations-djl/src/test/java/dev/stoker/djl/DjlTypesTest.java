package dev.stoker.djl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.ndarray.types.DataType;
import dev.stoker.tensor.DType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DjlTypesTest {

    @ParameterizedTest
    @EnumSource(DType.class)
    void everyDtypeHasADjlTypeOfTheSameWidthAndBack(DType dtype) {
        DataType djl = DjlTypes.toDjl(dtype);

        assertThat(djl.getNumOfBytes()).isEqualTo(dtype.byteSize());
        assertThat(djl.isFloating()).isEqualTo(dtype.isFloatingPoint());
        assertThat(DjlTypes.fromDjl(djl)).isEqualTo(dtype);
    }

    @Test
    void djlTypesStokerHasNoTensorOfAreNamed() {
        assertThatThrownBy(() -> DjlTypes.fromDjl(DataType.STRING))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("DJL type string has no Stoker dtype");
        assertThatThrownBy(() -> DjlTypes.fromDjl(DataType.UINT32))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void pyTorchTakesEightOfTheElevenTypesOtherEnginesSayForThemselves() {
        assertThat(DType.values())
                .filteredOn(t -> !DjlTypes.engineTakes(DjlTypes.PYTORCH, t))
                .containsExactlyInAnyOrder(DType.BF16, DType.I16, DType.U16);
        assertThat(DType.values()).allMatch(t -> DjlTypes.engineTakes("OnnxRuntime", t));
    }

    @Test
    void theRefusalSaysWhatToUseInstead() {
        assertThatThrownBy(() -> DjlTypes.checkEngineTakes(DjlTypes.PYTORCH, DType.U16, "field 'depth'"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("field 'depth' is u16 (uint16), which DJL's PyTorch engine cannot hold; it takes"
                        + " [bool, u8, i8, i32, i64, f16, f32, f64]. Make the dataset give i32 instead");
    }
}
