package dev.stoker.formats.npy;

import dev.stoker.formats.mmap.MapFaults;
import dev.stoker.formats.mmap.MappedFile;
import dev.stoker.formats.mmap.SharedArena;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * A {@code .npy} file, memory-mapped: its {@link NpyHeader header} and its data as a {@link Tensor}
 * that is a view of the map, with nothing copied.
 *
 * <p>Little-endian data in C order (what NumPy writes by default on every common machine) and
 * one-byte types are viewed in place. Big-endian data of wider types, and Fortran-order
 * ({@code np.asfortranarray}) arrays of any rank, are copied once, at {@link #open}, into memory
 * this object owns, byte-swapped and transposed into C order in one pass: Stoker's tensors are C
 * order in native byte order, and the values are those NumPy reads.
 *
 * <p>The tensor, and every row of {@link #rows()}, stay valid until {@link #close()}; using them
 * afterwards throws {@link IllegalStateException}. Reading is thread-safe.
 *
 * <pre>{@code
 * try (NpyFile npy = NpyFile.open(Path.of("images.npy"))) {
 *     Tensor all = npy.tensor();                // e.g. u8 [1000, 32, 32, 3], a view of the map
 *     Dataset<Tensor> rows = npy.rows();        // 1000 samples of u8 [32, 32, 3]
 *     DataLoader<Tensor> loader = DataLoader.builder(rows).batchSize(64).build();
 * }
 * }</pre>
 */
public final class NpyFile implements AutoCloseable {
    private final MappedFile file;
    private final NpyHeader header;
    private final Tensor tensor;
    private final Arena swapped; // holds the copy of data not usable in place (big-endian, Fortran order); else null

    private NpyFile(MappedFile file, NpyHeader header, Tensor tensor, Arena swapped) {
        this.file = file;
        this.header = header;
        this.tensor = tensor;
        this.swapped = swapped;
    }

    /** Maps and checks {@code path}. @throws NpyFormatException naming the file and what was wrong */
    public static NpyFile open(Path path) throws IOException {
        return wrap(MappedFile.open(path));
    }

    /** As {@link #open(Path)}, mapped in {@code group}'s shared arena. */
    public static NpyFile open(Path path, SharedArena group) throws IOException {
        return wrap(MappedFile.open(path, group));
    }

    private static NpyFile wrap(MappedFile file) throws IOException {
        Arena arena = null;
        try {
            NpyHeader h = NpyHeader.parse(file.segment(), file.path().toString());
            MemorySegment data = file.segment().asSlice(h.dataOffset(), h.dataBytes());
            if (!h.inPlace()) {
                arena = Arena.ofShared();
                MemorySegment copy = arena.allocate(Math.max(1, h.dataBytes()), 64).asSlice(0, h.dataBytes());
                try {
                    h.copyData(file.segment(), copy);
                    MapFaults.deliverPending();
                } catch (InternalError e) { // cut short while it was being opened
                    throw file.changed(e, "the array's data");
                }
                data = copy;
            }
            return new NpyFile(file, h, new Tensor(data, h.dtype(), h.shape()), arena);
        } catch (RuntimeException e) {
            if (arena != null) arena.close();
            file.close();
            throw e;
        }
    }

    public Path path() {
        return file.path();
    }

    public NpyHeader header() {
        return header;
    }

    /** The whole array, C order, native byte order; a view of the map unless the file was big-endian or Fortran order. */
    public Tensor tensor() {
        return tensor;
    }

    /**
     * The array as a map-style dataset over its first axis: sample {@code i} is row {@code i}, a
     * view. @throws IllegalStateException for a 0-d array, which has no rows
     */
    public NpyDataset rows() {
        if (header.shape().rank() == 0) {
            throw new IllegalStateException(path() + ": a 0-d array (shape ()) has no first axis to index");
        }
        return new NpyDataset(path().toString(), tensor, swapped == null ? file : null);
    }

    /** Unmaps the file and frees the copy, if any. Idempotent. */
    @Override
    public void close() {
        try {
            file.close();
        } finally {
            synchronized (this) {
                if (swapped != null && swapped.scope().isAlive()) {
                    swapped.close();
                }
            }
        }
    }

    @Override
    public String toString() {
        return "NpyFile(" + path() + ", " + header.descr().descr() + ", " + header.shape() + ")";
    }
}
