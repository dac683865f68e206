package dev.stoker.tensor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class DTypeTest {

    @Test
    void parsesShortNumpyAndEnumNamesIgnoringCase() {
        for (DType t : DType.values()) {
            assertThat(DType.parse(t.toString())).isEqualTo(t);
            assertThat(DType.parse(t.numpyName())).isEqualTo(t);
            assertThat(DType.parse(t.name())).isEqualTo(t);
            assertThat(DType.parse("  " + t.numpyName().toUpperCase() + " ")).isEqualTo(t);
        }
        assertThat(DType.parse("float32")).isEqualTo(DType.F32);
        assertThat(DType.parse("f16")).isEqualTo(DType.F16);
        assertThat(DType.parse("bfloat16")).isEqualTo(DType.BF16);
        assertThat(DType.parse("uint8")).isEqualTo(DType.U8);
    }

    @Test
    void parsesJavaStyleAliases() {
        Map<String, DType> aliases = Map.of("float", DType.F32, "half", DType.F16, "double", DType.F64,
                "long", DType.I64, "int", DType.I32, "short", DType.I16, "byte", DType.I8);
        aliases.forEach((name, t) -> assertThat(DType.parse(name)).as(name).isEqualTo(t));
    }

    @Test
    void unknownNamesAreRejectedWithTheAcceptedOnes() {
        assertThatThrownBy(() -> DType.parse("float128"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown dtype 'float128'")
                .hasMessageContaining("f32");
    }

    @Test
    void sizesAndKinds() {
        assertThat(DType.BOOL.byteSize()).isEqualTo(1);
        assertThat(DType.U8.byteSize()).isEqualTo(1);
        assertThat(DType.I8.byteSize()).isEqualTo(1);
        assertThat(DType.I16.byteSize()).isEqualTo(2);
        assertThat(DType.U16.byteSize()).isEqualTo(2);
        assertThat(DType.F16.byteSize()).isEqualTo(2);
        assertThat(DType.BF16.byteSize()).isEqualTo(2);
        assertThat(DType.I32.byteSize()).isEqualTo(4);
        assertThat(DType.F32.byteSize()).isEqualTo(4);
        assertThat(DType.I64.byteSize()).isEqualTo(8);
        assertThat(DType.F64.byteSize()).isEqualTo(8);
        for (DType t : DType.values()) {
            assertThat(t.layout().byteSize()).as(t.name()).isEqualTo(t.byteSize());
            assertThat(t.layout().byteAlignment()).as("unaligned " + t.name()).isEqualTo(1);
        }
        assertThat(DType.F16.isFloatingPoint()).isTrue();
        assertThat(DType.BF16.isFloatingPoint()).isTrue();
        assertThat(DType.I64.isFloatingPoint()).isFalse();
        assertThat(DType.U8.isSigned()).isFalse();
        assertThat(DType.U16.isSigned()).isFalse();
        assertThat(DType.I8.isSigned()).isTrue();
        assertThat(DType.F32.toString()).isEqualTo("f32");
        assertThat(DType.F32.numpyName()).isEqualTo("float32");
    }
}
