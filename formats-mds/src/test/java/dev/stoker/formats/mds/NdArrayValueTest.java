package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.tensor.Tensor;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The dynamic ndarray forms, encoded here as Streaming's NDArray.encode does, read back over seeded shapes. */
class NdArrayValueTest {
    private static final int[] CODES = {8, 9, 16, 17, 18, 32, 33, 34, 64, 65, 66};

    /** [dtype][ndim << 2 | shape dtype][shape][values], values k = 0, 1, 2, ... in the dtype. */
    static byte[] encode(MdsNumber number, long[] shape, boolean withDtype, int code) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (withDtype) {
            out.write(code);
        }
        long max = 0;
        for (long d : shape) {
            max = Math.max(max, d);
        }
        int shapeDtype = max < 1 << 8 ? 0 : max < 1 << 16 ? 1 : 2;
        out.write(shape.length << 2 | shapeDtype);
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        for (long d : shape) {
            b.clear();
            b.putLong(d);
            out.write(b.array(), 0, 1 << shapeDtype);
        }
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        for (long k = 0; k < n; k++) {
            b.clear();
            switch (number) {
                case F16 -> b.putShort(Float.floatToFloat16(k));
                case F32 -> b.putFloat(k);
                case F64 -> b.putDouble(k);
                default -> b.putLong(k);
            }
            out.write(b.array(), 0, number.byteSize());
        }
        return out.toByteArray();
    }

    @Test
    void everyDtypeAndShapeReadsBack() {
        SplittableRandom rnd = new SplittableRandom(42);
        for (int trial = 0; trial < 300; trial++) {
            int code = CODES[rnd.nextInt(CODES.length)];
            MdsNumber number = MdsNumber.byCode(code);
            long[] shape = new long[1 + rnd.nextInt(4)];
            for (int d = 0; d < shape.length; d++) {
                shape[d] = 1 + rnd.nextInt(rnd.nextInt(8) == 0 ? 300 : 5);
            }
            boolean dynamicDtype = rnd.nextBoolean();
            MdsEncoding enc = MdsEncoding.parse(dynamicDtype ? "ndarray" : "ndarray:" + number.numpyName());
            byte[] bytes = encode(number, shape, dynamicDtype, code);
            Tensor t = NdArrayValue.parse("test", enc, MemorySegment.ofArray(bytes)).tensor("test");
            assertThat(t.dtype()).isEqualTo(number.dtype());
            assertThat(t.shape().toArray()).containsExactly(shape);
            long n = t.elements();
            long k = rnd.nextLong(n);
            if (number.isFloatingPoint()) {
                assertThat(t.getDouble(k)).as("%s %s", number, k).isEqualTo(number == MdsNumber.F16
                        ? Float.float16ToFloat(Float.floatToFloat16(k)) : (double) k);
            } else {
                long mask = number.byteSize() == 8 ? -1L : (1L << 8 * number.byteSize()) - 1;
                long want = k & mask;
                assertThat(t.getLong(k) & mask).as("%s %s", number, k).isEqualTo(want);
            }
            // one byte more or less than the shape needs is refused
            byte[] shorter = java.util.Arrays.copyOf(bytes, bytes.length - 1);
            assertThatThrownBy(() -> NdArrayValue.parse("here", enc, MemorySegment.ofArray(shorter)))
                    .isInstanceOf(MdsFormatException.class).hasMessageContaining("here");
            byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1);
            assertThatThrownBy(() -> NdArrayValue.parse("here", enc, MemorySegment.ofArray(longer)))
                    .isInstanceOf(MdsFormatException.class);
        }
    }

    @Test
    void hugeDimensionsAreRefusedWithoutOverflow() {
        // ndim 2 with u64 dims 2^62 and 4: the product overflows a long
        ByteBuffer b = ByteBuffer.allocate(2 + 16 + 8).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 65).put((byte) (2 << 2 | 3)).putLong(1L << 62).putLong(4).putLong(7);
        assertThatThrownBy(() -> NdArrayValue.parse("x", MdsEncoding.parse("ndarray"), MemorySegment.ofArray(b.array())))
                .isInstanceOf(MdsFormatException.class).hasMessageContaining("needs more");
        ByteBuffer zero = ByteBuffer.allocate(2).put((byte) 65).put((byte) 0);
        assertThatThrownBy(() -> NdArrayValue.parse("x", MdsEncoding.parse("ndarray"), MemorySegment.ofArray(zero.array())))
                .isInstanceOf(MdsFormatException.class).hasMessageContaining("0 dimensions");
    }
}
