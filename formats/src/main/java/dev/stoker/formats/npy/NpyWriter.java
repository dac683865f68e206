package dev.stoker.formats.npy;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes tensors as {@code .npy} files that {@code numpy.load} reads: little-endian, C order,
 * format version 1.0 (2.0 when the header would pass 65,535 bytes), the header padded so that
 * the data starts at a multiple of 64 bytes, as NumPy pads it.
 *
 * <p>The file is written beside its final name and moved into place, so a reader never sees a
 * half-written file under the final name.
 *
 * <pre>{@code
 * Tensor t = Tensor.allocate(arena, DType.F32, Shape.of(2, 3));
 * NpyWriter.write(Path.of("t.npy"), t);   // np.load("t.npy") -> float32 array of shape (2, 3)
 * }</pre>
 */
public final class NpyWriter {
    private static final int ALIGNMENT = 64;
    /** Bytes per write call: a ByteBuffer view of a segment is limited to 2 GiB. */
    private static final long CHUNK = 1 << 30;
    private static final int HEAP_CHUNK = 1 << 20;

    private NpyWriter() {}

    /** Writes {@code tensor} to {@code path}, replacing any file there. */
    public static void write(Path path, Tensor tensor) throws IOException {
        byte[] header = header(tensor.dtype(), tensor.shape());
        // a temporary name of its own: two writers of one file never write into the same one
        Path tmp = Files.createTempFile(path.toAbsolutePath().getParent(), "." + path.getFileName(), ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            writeFully(ch, ByteBuffer.wrap(header));
            MemorySegment data = tensor.segment();
            if (data.isNative()) {
                for (long off = 0; off < data.byteSize(); off += CHUNK) {
                    writeFully(ch, data.asSlice(off, Math.min(CHUNK, data.byteSize() - off)).asByteBuffer());
                }
            } else {
                // A segment over a long[] or float[] has no ByteBuffer view: copy through a small buffer.
                ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(HEAP_CHUNK, Math.max(1, data.byteSize())));
                MemorySegment window = MemorySegment.ofBuffer(buffer);
                for (long off = 0; off < data.byteSize(); off += buffer.capacity()) {
                    int n = (int) Math.min(buffer.capacity(), data.byteSize() - off);
                    MemorySegment.copy(data, off, window, 0, n);
                    writeFully(ch, buffer.clear().limit(n));
                }
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        try {
            Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
    }

    private static void writeFully(FileChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    /**
     * The bytes that precede the data in a {@code .npy} file of {@code dtype} and {@code shape}:
     * magic, version, length and the padded header dict.
     *
     * @throws IllegalArgumentException for {@code BF16}, which NumPy has no type for
     */
    public static byte[] header(DType dtype, Shape shape) {
        String dict = "{'descr': '" + NpyDescr.little(dtype) + "', 'fortran_order': False, 'shape': "
                + shapeLiteral(shape) + ", }";
        byte[] text = dict.getBytes(StandardCharsets.ISO_8859_1);
        int version = text.length + 1 + 10 <= 0xFFFF ? 1 : 2;
        int prefix = version == 1 ? 10 : 12;
        int unpadded = prefix + text.length + 1; // + the closing '\n'
        int padded = (unpadded + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
        int headerLength = padded - prefix;
        ByteBuffer b = ByteBuffer.allocate(padded).order(ByteOrder.LITTLE_ENDIAN);
        b.put(NpyHeader.MAGIC).put((byte) version).put((byte) 0);
        if (version == 1) {
            b.putShort((short) headerLength);
        } else {
            b.putInt(headerLength);
        }
        b.put(text);
        while (b.position() < padded - 1) {
            b.put((byte) ' ');
        }
        b.put((byte) '\n');
        return b.array();
    }

    /** Python's repr of the shape tuple: {@code ()}, {@code (3,)}, {@code (2, 3)}. */
    static String shapeLiteral(Shape shape) {
        if (shape.rank() == 1) {
            return "(" + shape.dim(0) + ",)";
        }
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < shape.rank(); i++) {
            if (i > 0) sb.append(", ");
            sb.append(shape.dim(i));
        }
        return sb.append(')').toString();
    }
}
