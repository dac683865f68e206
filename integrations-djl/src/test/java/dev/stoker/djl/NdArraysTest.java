package dev.stoker.djl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class NdArraysTest {
    private Arena arena;
    private NDManager manager;

    @BeforeAll
    static void engineLoads() {
        assertThat(PyTorch.engine().getEngineName()).isEqualTo("PyTorch");
    }

    @BeforeEach
    void open() {
        arena = Arena.ofShared();
        manager = PyTorch.newManager();
    }

    @AfterEach
    void close() {
        manager.close(); // the NDArrays before the memory under them
        arena.close();
    }

    @ParameterizedTest
    @EnumSource(value = DType.class, names = {"F32", "F64", "F16", "I8", "U8", "I32", "I64", "BOOL"})
    void holdsTheTensorsValuesAndShape(DType dtype) {
        Tensor t = Tensor.allocate(arena, dtype, Shape.of(3, 4));
        for (int i = 0; i < 12; i++) {
            t.setDouble(i, dtype == DType.BOOL ? i % 3 == 0 ? 1 : 0 : dtype.isSigned() ? i - 5 : i * 20);
        }

        NDArray a = NdArrays.wrap(manager, t);

        assertThat(a.getDataType()).isEqualTo(DjlTypes.toDjl(dtype));
        assertThat(a.getShape().getShape()).containsExactly(3, 4);
        assertThat(a.getDevice()).isEqualTo(Device.cpu());
        // read back through torch's own conversion, element by element
        double[] fromTorch = a.toType(DataType.FLOAT64, false).toDoubleArray();
        for (int i = 0; i < 12; i++) {
            assertThat(fromTorch[i]).as("element %d", i).isEqualTo(t.getDouble(i));
        }
    }

    @Test
    void computesOnTheValues() {
        Tensor t = Tensor.allocate(arena, DType.F32, Shape.of(2, 3));
        t.copyFrom(new float[] {1, 2, 3, 4, 5, 6});

        NDArray a = NdArrays.wrap(manager, t);

        assertThat(a.sum().getFloat()).isEqualTo(21f);
        assertThat(a.get(1).toFloatArray()).containsExactly(4f, 5f, 6f);
        assertThat(a.matMul(a.transpose()).toFloatArray()).containsExactly(14f, 32f, 32f, 77f);
    }

    @Test
    void sharesTheMemoryWithoutACopy() {
        Tensor t = Tensor.allocate(arena, DType.F32, Shape.of(4));
        t.copyFrom(new float[] {1, 2, 3, 4});

        NDArray a = NdArrays.wrap(manager, t);

        // torch's data pointer is the segment's address
        ByteBuffer data = a.toByteBuffer(true);
        assertThat(data.isDirect()).isTrue();
        assertThat(MemorySegment.ofBuffer(data).address()).isEqualTo(t.segment().address());
        // a write through Stoker is seen by DJL...
        t.setFloat(2, 30f);
        assertThat(a.toFloatArray()).containsExactly(1f, 2f, 30f, 4f);
        // ...and one through DJL (in place) by Stoker
        a.muli(10);
        assertThat(t.toFloatArray()).containsExactly(10f, 20f, 300f, 40f);
    }

    @Test
    void wrapsAViewOfPartOfATensor() {
        Tensor t = Tensor.allocate(arena, DType.I64, Shape.of(4, 2));
        t.copyFrom(new long[] {0, 1, 2, 3, 4, 5, 6, 7});

        NDArray a = NdArrays.wrap(manager, t.slice(1, 3));

        assertThat(a.getShape().getShape()).containsExactly(2, 2);
        assertThat(a.toLongArray()).containsExactly(2, 3, 4, 5);
        assertThat(MemorySegment.ofBuffer(a.toByteBuffer(true)).address()).isEqualTo(t.segment().address() + 16);
    }

    @Test
    void keepsScalarsAndEmptyTensors() {
        Tensor scalar = Tensor.allocate(arena, DType.F64, Shape.scalar());
        scalar.setDouble(0, 2.5);
        Tensor empty = Tensor.allocate(arena, DType.F32, Shape.of(0, 3));

        NDArray s = NdArrays.wrap(manager, scalar);
        NDArray e = NdArrays.wrap(manager, empty);

        assertThat(s.getShape().dimension()).isZero();
        assertThat(s.getDouble()).isEqualTo(2.5);
        assertThat(e.getShape().getShape()).containsExactly(0, 3);
        assertThat(e.size()).isZero();
    }

    @ParameterizedTest
    @EnumSource(value = DType.class, names = {"BF16", "I16", "U16"})
    void refusesWhatPyTorchCannotHoldNamingTheTensor(DType dtype) {
        Tensor t = Tensor.allocate(arena, dtype, Shape.of(2));

        assertThatThrownBy(() -> NdArrays.wrap(manager, t, "field 'pixels'"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("field 'pixels'")
                .hasMessageContaining("is " + dtype)
                .hasMessageContaining("PyTorch");
    }

    @Test
    void refusesHeapAndReadOnlyMemory() {
        Tensor heap = new Tensor(MemorySegment.ofArray(new float[4]), DType.F32, Shape.of(4));
        Tensor readOnly = new Tensor(arena.allocate(16).asReadOnly(), DType.F32, Shape.of(4));

        assertThatThrownBy(() -> NdArrays.wrap(manager, heap))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Java heap");
        assertThatThrownBy(() -> NdArrays.wrap(manager, readOnly))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("read-only");
    }

    @Test
    void refusesAMemoryMappedFileEvenWritable() throws java.io.IOException {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("ndarrays", ".bin");
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
                java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(16));
            Tensor mapped = new Tensor(ch.map(java.nio.channels.FileChannel.MapMode.READ_WRITE, 0, 16, arena),
                    DType.F32, Shape.of(4));
            assertThatThrownBy(() -> NdArrays.wrap(manager, mapped, "field 'x'"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("field 'x' lies in a memory-mapped file");
        } finally {
            java.nio.file.Files.deleteIfExists(file);
        }
    }

    @Test
    void refusesAManagerOffTheCpu() {
        // made without touching a GPU: the check comes before any native call
        try (NDManager gpu = manager.newSubManager(Device.gpu())) {
            Tensor t = Tensor.allocate(arena, DType.F32, Shape.of(2));

            assertThatThrownBy(() -> NdArrays.wrap(gpu, t))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("without a copy on gpu(0)")
                    .hasMessageContaining("Device.cpu()");
        }
    }
}
