package dev.stoker.tensor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TensorTest {
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void close() {
        arena.close();
    }

    private Tensor tensor(DType dtype, long... shape) {
        return Tensor.allocate(arena, dtype, Shape.of(shape));
    }

    @Test
    void allocatesZeroedAlignedMemoryOfTheRightSize() {
        Tensor t = tensor(DType.F64, 3, 5);
        assertThat(t.byteSize()).isEqualTo(3 * 5 * 8);
        assertThat(t.elements()).isEqualTo(15);
        assertThat(t.segment().address() % 64).isZero();
        assertThat(t.toDoubleArray()).containsOnly(0.0);
    }

    @Test
    void everyDtypeStoresAndReadsBackExactValues() {
        for (DType dtype : DType.values()) {
            Tensor t = tensor(dtype, 4);
            double[] values = switch (dtype) {
                case BOOL -> new double[] {0, 1, 1, 0};
                case U8 -> new double[] {0, 1, 200, 255};
                case I8 -> new double[] {-128, -1, 0, 127};
                case I16 -> new double[] {-32768, -1, 0, 32767};
                case U16 -> new double[] {0, 1, 40_000, 65_535};
                case I32 -> new double[] {Integer.MIN_VALUE, -1, 0, Integer.MAX_VALUE};
                case I64 -> new double[] {-(1L << 53), -1, 0, 1L << 53};
                case F16, BF16 -> new double[] {-2, 0.5, 0, 256};
                case F32 -> new double[] {-1.5, 0.25, 0, Float.MAX_VALUE};
                case F64 -> new double[] {-1e300, 1e-300, 0, Math.PI};
            };
            for (int i = 0; i < 4; i++) t.setDouble(i, values[i]);
            for (int i = 0; i < 4; i++) {
                assertThat(t.getDouble(i)).as(dtype + " element " + i).isEqualTo(values[i]);
                assertThat(t.getFloat(i)).as(dtype + " element " + i).isEqualTo((float) values[i]);
                if (!dtype.isFloatingPoint()) {
                    assertThat(t.getLong(i)).as(dtype + " element " + i).isEqualTo((long) values[i]);
                }
            }
        }
    }

    @Test
    void longsAreExactBeyondDoublePrecision() {
        Tensor t = tensor(DType.I64, 2);
        t.setLong(0, Long.MAX_VALUE);
        t.setLong(1, Long.MIN_VALUE + 1);
        assertThat(t.getLong(0)).isEqualTo(Long.MAX_VALUE);
        assertThat(t.getLong(1)).isEqualTo(Long.MIN_VALUE + 1);
        assertThat(t.toLongArray()).containsExactly(Long.MAX_VALUE, Long.MIN_VALUE + 1);
    }

    @Test
    void unsignedTypesReadUnsigned() {
        Tensor u8 = tensor(DType.U8, 2);
        u8.setLong(0, 255);
        u8.segment().set(ValueLayout.JAVA_BYTE, 1, (byte) -128);
        assertThat(u8.getLong(0)).isEqualTo(255);
        assertThat(u8.getLong(1)).isEqualTo(128);
        assertThat(u8.getDouble(1)).isEqualTo(128.0);
        Tensor i8 = new Tensor(u8.segment(), DType.I8, u8.shape());
        assertThat(i8.getLong(0)).as("the same bits as int8").isEqualTo(-1);

        Tensor u16 = tensor(DType.U16, 1);
        u16.setLong(0, 65_535);
        assertThat(u16.getLong(0)).isEqualTo(65_535);
        assertThat(new Tensor(u16.segment(), DType.I16, u16.shape()).getLong(0)).isEqualTo(-1);
    }

    @Test
    void boolStoresZeroOrOne() {
        Tensor b = tensor(DType.BOOL, 3);
        b.setDouble(0, 0.5);
        b.setLong(1, 42);
        b.setLong(2, 0);
        assertThat(b.toByteArray()).containsExactly(1, 1, 0);
        assertThat(b.toString()).isEqualTo("tensor(bool, [3], [true, true, false])");
    }

    @Test
    void halfFloatsRoundTripWithinTheirPrecision() {
        float[] values = {0.1f, -3.14159f, 1000.7f, 1e-3f, 65504f};
        Tensor f16 = tensor(DType.F16, values.length);
        Tensor bf16 = tensor(DType.BF16, values.length);
        f16.copyFrom(values);
        bf16.copyFrom(values);
        for (int i = 0; i < values.length; i++) {
            // 11 significant bits for float16, 8 for bfloat16
            assertThat(f16.getFloat(i)).isCloseTo(values[i], within(Math.abs(values[i]) / 1024));
            assertThat(bf16.getFloat(i)).isCloseTo(values[i], within(Math.abs(values[i]) / 128));
        }
        assertThat(f16.byteSize()).isEqualTo(2L * values.length);
        f16.setFloat(0, 1e6f);
        assertThat(f16.getFloat(0)).as("beyond float16's range").isInfinite();
        bf16.setFloat(0, 1e30f);
        assertThat(bf16.getFloat(0)).isCloseTo(1e30f, within(1e30f / 128));
    }

    @Test
    void selectAndSliceAreViewsSharingMemory() {
        Tensor t = tensor(DType.I32, 4, 3);
        t.copyFrom(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});

        Tensor row = t.select(2);
        assertThat(row.shape()).isEqualTo(Shape.of(3));
        assertThat(row.toIntArray()).containsExactly(6, 7, 8);
        row.setLong(1, -7);
        assertThat(t.get(2, 1)).isEqualTo(-7);

        Tensor rows = t.slice(1, 3);
        assertThat(rows.shape()).isEqualTo(Shape.of(2, 3));
        assertThat(rows.toIntArray()).containsExactly(3, 4, 5, 6, -7, 8);
        rows.setLong(0, 33);
        assertThat(t.getLong(3)).isEqualTo(33);

        assertThat(t.slice(2, 2).shape()).isEqualTo(Shape.of(0, 3));
        assertThat(rows.select(1).select(0).getLong(0)).isEqualTo(6);
    }

    @Test
    void viewsOutOfRangeAreRejected() {
        Tensor t = tensor(DType.F32, 4, 2);
        assertThatThrownBy(() -> t.select(4)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("row 4").hasMessageContaining("[4, 2]");
        assertThatThrownBy(() -> t.select(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> t.slice(3, 5)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> t.slice(2, 1)).isInstanceOf(IndexOutOfBoundsException.class);
        Tensor scalar = tensor(DType.F32);
        assertThatThrownBy(() -> scalar.select(0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void elementAccessOutOfRangeIsRejected() {
        Tensor t = tensor(DType.I16, 2, 3);
        assertThatThrownBy(() -> t.getDouble(6)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("element 6");
        assertThatThrownBy(() -> t.setLong(-1, 0)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> t.get(0, 3)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("axis 1");
        assertThatThrownBy(() -> t.get(1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rank 1");
        assertThat(t.flatIndex(1, 2)).isEqualTo(5);
    }

    @Test
    void reshapeSharesMemoryAndKeepsTheElementCount() {
        Tensor t = tensor(DType.F32, 2, 6);
        Tensor r = t.reshape(Shape.of(3, 2, 2));
        assertThat(r.shape()).isEqualTo(Shape.of(3, 2, 2));
        r.setFloat(11, 5f);
        assertThat(t.get(1, 5)).isEqualTo(5.0);
        assertThatThrownBy(() -> t.reshape(Shape.of(5, 2))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("12 elements").hasMessageContaining("10 elements");
    }

    @Test
    void copiesInAndOutOfEveryArrayType() {
        Tensor f = tensor(DType.F32, 3);
        f.copyFrom(new float[] {1.5f, -2, 3});
        assertThat(f.toFloatArray()).containsExactly(1.5f, -2, 3);
        assertThat(f.toDoubleArray()).containsExactly(1.5, -2, 3);

        Tensor d = tensor(DType.F64, 2);
        d.copyFrom(new double[] {0.1, 0.2});
        assertThat(d.toDoubleArray()).containsExactly(0.1, 0.2);

        Tensor l = tensor(DType.I64, 2);
        l.copyFrom(new long[] {1L << 60, -3});
        assertThat(l.toLongArray()).containsExactly(1L << 60, -3);

        Tensor i = tensor(DType.I32, 2);
        i.copyFrom(new int[] {7, -8});
        assertThat(i.toIntArray()).containsExactly(7, -8);

        Tensor s = tensor(DType.I16, 2);
        s.copyFrom(new short[] {-300, 300});
        assertThat(s.toLongArray()).containsExactly(-300, 300);

        Tensor b = tensor(DType.U8, 2);
        b.copyFrom(new byte[] {(byte) 250, 3});
        assertThat(b.toByteArray()).containsExactly((byte) 250, 3);
        assertThat(b.toLongArray()).containsExactly(250, 3);

        Tensor bools = tensor(DType.BOOL, 2);
        bools.copyFrom(new boolean[] {true, false});
        assertThat(bools.toByteArray()).containsExactly(1, 0);

        // across types the values are cast, as a Java cast would
        Tensor ints = tensor(DType.I32, 2);
        ints.copyFrom(new float[] {2.9f, -2.9f});
        assertThat(ints.toIntArray()).containsExactly(2, -2);
        Tensor floats = tensor(DType.F32, 2);
        floats.copyFrom(new long[] {3, -4});
        assertThat(floats.toFloatArray()).containsExactly(3, -4);
    }

    @Test
    void copiesCheckTheLength() {
        Tensor t = tensor(DType.F32, 2, 2);
        assertThatThrownBy(() -> t.copyFrom(new float[3])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 values").hasMessageContaining("[2, 2]");
        assertThatThrownBy(() -> t.copyFrom(tensor(DType.F64, 2, 2))).isInstanceOf(IllegalArgumentException.class);
        Tensor other = tensor(DType.F32, 4);
        other.copyFrom(new float[] {1, 2, 3, 4});
        t.copyFrom(other);
        assertThat(t.get(1, 1)).isEqualTo(4.0);
    }

    @Test
    void aSegmentTooSmallIsRejectedAndALargerOneIsCut() {
        MemorySegment seg = arena.allocate(20);
        assertThatThrownBy(() -> new Tensor(seg, DType.F64, Shape.of(3))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs 24 bytes").hasMessageContaining("holds 20");
        assertThat(new Tensor(seg, DType.F32, Shape.of(2)).byteSize()).isEqualTo(8);
    }

    @Test
    void viewsOfJavaArraysWork() {
        float[] heap = {1, 2, 3, 4};
        Tensor t = new Tensor(MemorySegment.ofArray(heap), DType.F32, Shape.of(2, 2));
        t.setFloat(3, 40);
        assertThat(heap[3]).isEqualTo(40);
    }

    @Test
    void toStringIsShortAndElidesLongTensors() {
        Tensor small = tensor(DType.F32, 2, 3);
        small.copyFrom(new float[] {1, 2, 3, 4, 5, 6});
        assertThat(small).hasToString("tensor(f32, [2, 3], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])");

        Tensor big = tensor(DType.I64, 10);
        for (int i = 0; i < 10; i++) big.setLong(i, i);
        assertThat(big).hasToString("tensor(i64, [10], [0, 1, 2, ..., 7, 8, 9])");

        Tensor seven = tensor(DType.I32, 7);
        assertThat(seven).hasToString("tensor(i32, [7], [0, 0, 0, ..., 0, 0, 0])");

        assertThat(tensor(DType.U8, 0)).hasToString("tensor(u8, [0], [])");
        Tensor scalar = tensor(DType.F64);
        scalar.setDouble(0, 2.5);
        assertThat(scalar).hasToString("tensor(f64, [], [2.5])");
    }
}
