package dev.stoker.formats.npy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fortran-order arrays of random shapes, dtypes and byte orders read back equal to the C-order
 * array they were made from. The Fortran bytes are laid out here element by element from each
 * element's multi-index (an independent route from the reader's run-by-run copy).
 */
class FortranOrderPropertyTest {
    private static final DType[] TYPES = {DType.BOOL, DType.U8, DType.I8, DType.I16, DType.U16, DType.I32,
        DType.I64, DType.F16, DType.F32, DType.F64};

    @TempDir
    Path dir;

    @Test
    void randomFortranArraysReadBackAsTheirCOrderValues() throws IOException {
        Random rnd = new Random(16_013);
        for (int c = 0; c < 300; c++) {
            DType dtype = TYPES[rnd.nextInt(TYPES.length)];
            long[] dims = new long[1 + rnd.nextInt(5)];
            for (int i = 0; i < dims.length; i++) {
                dims[i] = rnd.nextInt(6); // 0 and 1 included: empty arrays and axes that change nothing
            }
            Shape shape = Shape.of(dims);
            int width = dtype.byteSize();
            ByteOrder order = width > 1 && rnd.nextBoolean() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            byte[] cOrder = new byte[(int) (shape.elements() * width)];
            rnd.nextBytes(cOrder);
            if (dtype == DType.BOOL) {
                for (int i = 0; i < cOrder.length; i++) {
                    cOrder[i] &= 1;
                }
            }
            Path file = dir.resolve("case" + c + ".npy");
            Files.write(file, npy(dtype, order, shape, fortran(cOrder, dims, width, order)));
            try (NpyFile npy = NpyFile.open(file)) {
                Tensor t = npy.tensor();
                assertThat(t.shape()).isEqualTo(shape);
                assertThat(t.segment().toArray(ValueLayout.JAVA_BYTE))
                        .as("case %d: %s %s %s", c, dtype, order, shape)
                        .isEqualTo(nativeOrder(cOrder, width, order));
            }
        }
    }

    /** The C-order elements {@code c} (in byte order {@code order}) laid out column-major. */
    private static byte[] fortran(byte[] c, long[] dims, int width, ByteOrder order) {
        byte[] f = new byte[c.length];
        long elements = c.length / width;
        int[] index = new int[dims.length];
        for (long e = 0; e < elements; e++) {
            long rest = e; // e's multi-index in C order: the last axis varies fastest
            for (int k = dims.length - 1; k >= 0; k--) {
                index[k] = (int) (rest % dims[k]);
                rest /= dims[k];
            }
            long fe = 0; // its position in Fortran order: the first axis varies fastest
            for (int k = dims.length - 1; k >= 0; k--) {
                fe = fe * dims[k] + index[k];
            }
            System.arraycopy(c, (int) (e * width), f, (int) (fe * width), width);
        }
        return f;
    }

    /** Elements of {@code width} bytes in {@code order}, as the tensor holds them: native order. */
    private static byte[] nativeOrder(byte[] bytes, int width, ByteOrder order) {
        byte[] out = bytes.clone();
        if (width > 1 && order != ByteOrder.nativeOrder()) {
            for (int i = 0; i < out.length; i += width) {
                for (int j = 0; j < width / 2; j++) {
                    byte b = out[i + j];
                    out[i + j] = out[i + width - 1 - j];
                    out[i + width - 1 - j] = b;
                }
            }
        }
        return out;
    }

    private static byte[] npy(DType dtype, ByteOrder order, Shape shape, byte[] data) {
        String kind = switch (dtype) {
            case BOOL -> "|b1";
            case U8 -> "|u1";
            case I8 -> "|i1";
            default -> (order == ByteOrder.BIG_ENDIAN ? ">" : "<") + NpyDescr.little(dtype).substring(1);
        };
        StringBuilder dims = new StringBuilder("(");
        for (int i = 0; i < shape.rank(); i++) {
            dims.append(shape.dim(i)).append(shape.rank() == 1 ? ",)" : i == shape.rank() - 1 ? ")" : ", ");
        }
        String dict = "{'descr': '" + kind + "', 'fortran_order': True, 'shape': " + dims + ", }";
        int pad = (64 - (10 + dict.length() + 1) % 64) % 64;
        byte[] header = (dict + " ".repeat(pad) + "\n").getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer b = ByteBuffer.allocate(10 + header.length + data.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(NpyHeader.MAGIC).put((byte) 1).put((byte) 0).putShort((short) header.length).put(header).put(data);
        return b.array();
    }
}
