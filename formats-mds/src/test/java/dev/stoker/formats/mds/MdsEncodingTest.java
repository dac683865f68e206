package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MdsEncodingTest {
    @Test
    void fixedSizesAreWhatMdsWriterRecordsInColumnSizes() {
        assertThat(MdsEncoding.parse("int").fixedSize()).isEqualTo(8);
        assertThat(MdsEncoding.parse("uint16").fixedSize()).isEqualTo(2);
        assertThat(MdsEncoding.parse("float16").fixedSize()).isEqualTo(2);
        assertThat(MdsEncoding.parse("ndarray:float32:2,3").fixedSize()).isEqualTo(24);
        assertThat(MdsEncoding.parse("ndarray:int16").fixedSize()).isEqualTo(-1);
        assertThat(MdsEncoding.parse("ndarray").fixedSize()).isEqualTo(-1);
        for (String variable : new String[] {"bytes", "str", "json", "pkl", "jpeg", "png", "pil", "list[jpeg]",
                "list[png]", "list[pil]", "jpeg_array", "jpegarray", "str_int", "str_float", "str_decimal"}) {
            assertThat(MdsEncoding.parse(variable).fixedSize()).as(variable).isEqualTo(-1);
        }
    }

    @Test
    void theFourNdarrayFormsAreTold() {
        MdsEncoding dynamic = MdsEncoding.parse("ndarray");
        assertThat(dynamic.number()).isNull();
        assertThat(dynamic.shape()).isNull();
        MdsEncoding dtypeOnly = MdsEncoding.parse("ndarray:uint8");
        assertThat(dtypeOnly.number()).isEqualTo(MdsNumber.U8);
        assertThat(dtypeOnly.shape()).isNull();
        assertThat(dtypeOnly.isFixedTensor()).isFalse();
        MdsEncoding fixed = MdsEncoding.parse("ndarray:float64:4,1,2");
        assertThat(fixed.shape()).containsExactly(4, 1, 2);
        assertThat(fixed.isFixedTensor()).isTrue();
    }

    @Test
    void unknownOrMalformedEncodingsAreRefusedWithTheirName() {
        assertThatThrownBy(() -> MdsEncoding.parse("complex")).hasMessageContaining("unknown encoding 'complex'");
        assertThatThrownBy(() -> MdsEncoding.parse("ndarray:float32:0,3")).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> MdsEncoding.parse("ndarray:float32:a")).hasMessageContaining("not a list");
        assertThatThrownBy(() -> MdsEncoding.parse("ndarray:float32:99999999999,99999999999"))
                .hasMessageContaining("not a list of sizes");
        assertThatThrownBy(() -> MdsEncoding.parse("ndarray:bool")).hasMessageContaining("dtype 'bool'");
        assertThatThrownBy(() -> MdsEncoding.parse("ndarray:int8:2:3")).hasMessageContaining("at most");
    }
}
