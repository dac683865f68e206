package dev.stoker.formats.hdf5;

import dev.stoker.data.DataFiles;
import io.jhdf.HdfFile;
import io.jhdf.Superblock;
import io.jhdf.exceptions.HdfException;
import io.jhdf.storage.HdfBackingStorage;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Opens an {@link HdfFile} over a {@link BoundedStorage} instead of jhdf's unchecked channel.
 * jhdf 0.13 builds an HdfFile from a storage only in a private constructor (the one
 * {@code HdfFile.fromByteBuffer} uses); it is reached by reflection, which the automatic module
 * io.jhdf allows, and the signature search and superblock read repeat what jhdf's public
 * constructor does.
 */
final class JhdfFiles {
    private static final byte[] SIGNATURE = {(byte) 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    private static final Constructor<HdfFile> FROM_STORAGE = fromStorage();

    private JhdfFiles() {
    }

    /** Opens {@code file} (of {@code fileSize} bytes) read-only; jhdf's exceptions come out as they are. */
    static HdfFile open(Path file, long fileSize) throws IOException {
        if (FROM_STORAGE == null) { // jhdf's own channel: correct files read the same, corrupt ones less safely
            return new HdfFile(file);
        }
        FileChannel channel = DataFiles.openChannel(file); // a FIFO is refused, not opened
        try {
            long offset = signatureOffset(channel, fileSize);
            Superblock superblock = Superblock.readSuperblock(channel, offset);
            if (superblock.getBaseAddressByte() != offset) {
                throw new HdfException("the superblock at " + offset + " gives base address "
                        + superblock.getBaseAddressByte());
            }
            HdfBackingStorage storage = new BoundedStorage(channel, superblock, fileSize);
            return FROM_STORAGE.newInstance(storage);
        } catch (InvocationTargetException e) {
            channel.close();
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new HdfException("cannot open: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            channel.close();
            throw new IllegalStateException("jhdf's HdfFile(HdfBackingStorage) is not usable: " + e, e);
        } catch (RuntimeException | Error e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Closes what {@link #open} opened. jhdf's {@code HdfFile.close()} logs the file's path, which an
     * HdfFile built from a storage does not know, and throws after closing; the storage is closed
     * directly instead.
     */
    static void close(HdfFile hdf) {
        if (hdf.getHdfBackingStorage() instanceof BoundedStorage storage) {
            storage.close();
        } else {
            hdf.close();
        }
    }

    /** Where the superblock starts: 0, 512, 1024, 2048, ... (a user block may precede it). */
    private static long signatureOffset(FileChannel channel, long fileSize) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(SIGNATURE.length);
        for (long offset = 0; offset + SIGNATURE.length <= fileSize; offset = offset == 0 ? 512 : offset * 2) {
            buffer.clear();
            while (buffer.hasRemaining() && channel.read(buffer, offset + buffer.position()) > 0) {
                // read the 8 bytes
            }
            if (!buffer.hasRemaining() && Arrays.equals(buffer.array(), SIGNATURE)) {
                return offset;
            }
        }
        throw new HdfException("no HDF5 signature at offset 0, 512, 1024, ...");
    }

    /** The private constructor, or null where it is gone (another jhdf) or closed (a module that does not open). */
    private static Constructor<HdfFile> fromStorage() {
        try {
            Constructor<HdfFile> c = HdfFile.class.getDeclaredConstructor(HdfBackingStorage.class);
            c.setAccessible(true);
            return c;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
