package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.HexFormat;
import java.util.List;

/** Compares a sample with what make_fixtures.py gave the writer for it (expected.json), per encoding. */
final class ExpectedValues {
    private ExpectedValues() {
    }

    static void assertSample(MdsSample s, JsonNode columns, JsonNode expected) {
        for (var column : columns.properties()) {
            String name = column.getKey();
            String enc = column.getValue().asText();
            JsonNode want = expected.get(name);
            String as = "sample " + s.index() + " column " + name + " (" + enc + ")";
            assertThat(s.encoding(name)).isEqualTo(enc);
            switch (enc) {
                case "bytes", "pkl", "jpeg", "png", "pil" -> assertThat(hex(s.segment(name))).as(as).isEqualTo(want.asText());
                case "str", "json", "str_decimal", "str_int", "str_float" -> {
                    assertThat(s.string(name)).as(as).isEqualTo(want.asText());
                    if (enc.equals("str_int")) {
                        assertThat(s.decimal(name).toBigInteger()).as(as).isEqualTo(new BigInteger(want.asText()));
                    } else if (enc.equals("str_float")) {
                        assertThat(s.doubleValue(name)).as(as).isEqualTo(Double.parseDouble(want.asText()));
                    } else if (enc.equals("str_decimal")) {
                        assertThat(s.decimal(name)).as(as).isEqualByComparingTo(want.asText());
                    }
                }
                case "float16", "float32", "float64" -> assertThat(s.doubleValue(name)).as(as).isEqualTo(want.asDouble());
                case "list[jpeg]", "list[png]", "list[pil]", "jpeg_array" -> {
                    List<MemorySegment> items = s.items(name);
                    assertThat(items).as(as).hasSize(want.size());
                    for (int i = 0; i < items.size(); i++) {
                        assertThat(hex(items.get(i))).as(as + " item " + i).isEqualTo(want.get(i).asText());
                    }
                }
                default -> {
                    if (enc.startsWith("ndarray")) {
                        assertArray(s.tensor(name), want, as);
                    } else if (enc.equals("uint64") && want.bigIntegerValue().bitLength() > 63) {
                        assertThatThrownBy(() -> s.longValue(name)).as(as).isInstanceOf(MdsFormatException.class)
                                .hasMessageContaining("column '" + name + "'").hasMessageContaining("does not fit");
                        assertThat(s.doubleValue(name)).isEqualTo(want.bigIntegerValue().doubleValue());
                    } else {
                        assertThat(s.longValue(name)).as(as).isEqualTo(want.asLong());
                        assertThat(s.tensor(name).getLong(0)).as(as).isEqualTo(want.asLong());
                    }
                }
            }
        }
    }

    static void assertArray(Tensor t, JsonNode want, String as) {
        String dtype = want.get("dtype").asText();
        DType expected = dtype.equals("uint32") || dtype.equals("uint64") ? DType.I64 : DType.parse(dtype);
        assertThat(t.dtype()).as(as).isEqualTo(expected);
        long[] shape = new long[want.get("shape").size()];
        for (int i = 0; i < shape.length; i++) {
            shape[i] = want.get("shape").get(i).asLong();
        }
        assertThat(t.shape().toArray()).as(as).containsExactly(shape);
        JsonNode values = want.get("values");
        assertThat(t.elements()).as(as).isEqualTo(values.size());
        for (int i = 0; i < values.size(); i++) {
            if (t.dtype().isFloatingPoint()) {
                assertThat(t.getDouble(i)).as(as + " [" + i + "]").isEqualTo(values.get(i).asDouble());
            } else {
                assertThat(t.getLong(i)).as(as + " [" + i + "]").isEqualTo(values.get(i).asLong());
            }
        }
    }

    static String hex(MemorySegment s) {
        return HexFormat.of().formatHex(s.toArray(ValueLayout.JAVA_BYTE));
    }
}
