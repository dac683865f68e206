package dev.stoker.formats.tar;

import dev.stoker.data.DataFiles;
import dev.stoker.formats.mmap.MapFaults;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A tar file mapped into memory: headers are copied out one block at a time, member data is a
 * slice of the map (no copy), valid as long as the arena that mapped it is open.
 */
final class MappedTarSource implements TarSource {
    private final String name;
    private final MemorySegment map;
    private final Path file; // the file mapped, when known: named if it is cut short under the map
    private long position;

    MappedTarSource(String name, MemorySegment map) {
        this(name, map, null);
    }

    MappedTarSource(String name, MemorySegment map, Path file) {
        this.name = name;
        this.map = map;
        this.file = file;
    }

    /** Maps {@code path} whole, read-only, into {@code arena}. */
    static MemorySegment map(Path path, Arena arena) {
        try (FileChannel ch = DataFiles.openChannel(path)) { // a FIFO or a device is refused, not opened
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
        } catch (IOException e) {
            throw new TarException(path.toString(), 0, "cannot open: " + e, e);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public long remaining() {
        return map.byteSize() - position;
    }

    @Override
    public boolean readBlock(byte[] block) {
        long left = remaining();
        if (left == 0) {
            return false;
        }
        if (left < TarHeader.BLOCK) {
            throw new TarException(name, position, "file ends " + left
                    + " bytes into a 512-byte header block (truncated shard)");
        }
        MemorySegment.copy(map, ValueLayout.JAVA_BYTE, position, block, 0, TarHeader.BLOCK);
        position += TarHeader.BLOCK;
        return true;
    }

    @Override
    public MemorySegment take(long size, String what) {
        checkLeft(size, what);
        MemorySegment slice = map.asSlice(position, size);
        position += size;
        return slice;
    }

    @Override
    public void skip(long size, String what) {
        checkLeft(size, what);
        position += size;
    }

    private void checkLeft(long size, String what) {
        if (size > remaining()) {
            throw new TarException(name, position, what + " needs " + size + " bytes but the file has only "
                    + remaining() + " left (truncated shard)");
        }
    }

    @Override
    public Error changed(InternalError error, String what) {
        if (file == null) {
            throw error;
        }
        return MapFaults.changed(error, file, map.byteSize(), what + (name.equals(file.toString()) ? ""
                : " of " + name));
    }

    @Override
    public void close() {
        // The map belongs to the caller's arena: slices handed out must outlive this reader.
    }
}
