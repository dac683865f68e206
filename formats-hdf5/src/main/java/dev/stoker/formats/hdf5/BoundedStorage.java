package dev.stoker.formats.hdf5;

import io.jhdf.Superblock;
import io.jhdf.exceptions.HdfException;
import io.jhdf.storage.HdfBackingStorage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of an HDF5 file as jhdf reads them, with every read checked before anything is
 * allocated: jhdf's own channel allocates a heap buffer of whatever length the file claims (up to
 * 2 GiB) and only then finds the file shorter. Here a read must lie inside the file, a metadata
 * read (object header, B-tree node, heap) may not exceed {@link #MAX_METADATA_READ}, and the
 * metadata read in all may not exceed {@link #metadataBudget(long)}: a corrupt file whose headers
 * or B-tree nodes point back at each other would otherwise loop forever.
 *
 * <p>Violations throw jhdf's {@link HdfException}, so they travel through jhdf like its own read
 * errors; {@link Hdf5Dataset} turns them into an {@link Hdf5FormatException} naming the file.
 */
final class BoundedStorage implements HdfBackingStorage {
    /** The largest single metadata block read; real ones are kilobytes (B-tree nodes, headers). */
    static final int MAX_METADATA_READ = 64 << 20;
    /** Reads up to this length go to the heap; longer ones are mapped (chunks of raw data). */
    private static final long HEAP_READ_LIMIT = 1 << 20;

    private final FileChannel channel;
    private final Superblock superblock;
    private final long fileSize;
    private final long budget;
    private final AtomicLong metadataRead = new AtomicLong();

    BoundedStorage(FileChannel channel, Superblock superblock, long fileSize) {
        this.channel = channel;
        this.superblock = superblock;
        this.fileSize = fileSize;
        this.budget = metadataBudget(fileSize);
    }

    /** All metadata may be read a few times over (jhdf re-reads some), never endlessly. */
    static long metadataBudget(long fileSize) {
        return 16L * fileSize + (4L << 20);
    }

    @Override
    public ByteBuffer readBufferFromAddress(long address, int length) {
        if (length < 0 || length > MAX_METADATA_READ) {
            throw new HdfException("a metadata block of " + length + " bytes at address " + address
                    + " (the limit is " + MAX_METADATA_READ + "): corrupt");
        }
        long raw = checkedRange(address, length);
        if (metadataRead.addAndGet(length) > budget) {
            throw new HdfException("more than " + budget + " bytes of metadata read from a file of " + fileSize
                    + " bytes: its headers or B-tree nodes form a cycle");
        }
        return read(raw, length);
    }

    @Override
    public ByteBuffer map(long address, long length) {
        return mapNoOffset(checkedRange(address, length), length);
    }

    @Override
    public ByteBuffer mapNoOffset(long address, long length) {
        if (address < 0 || length < 0 || address > fileSize || length > fileSize - address) {
            throw outside(address, length);
        }
        if (length <= HEAP_READ_LIMIT) {
            return read(address, (int) length);
        }
        try {
            return channel.map(FileChannel.MapMode.READ_ONLY, address, length).order(ByteOrder.LITTLE_ENDIAN);
        } catch (IOException e) {
            throw new HdfException("cannot map " + length + " bytes at " + address + ": " + e, e);
        }
    }

    /** The raw file position of {@code [address, address + length)} after the user block, checked. */
    private long checkedRange(long address, long length) {
        long base = superblock.getBaseAddressByte();
        if (address < 0 || length < 0 || base < 0 || address > fileSize - base) {
            throw outside(address, length);
        }
        long raw = address + base;
        if (length > fileSize - raw) {
            throw outside(address, length);
        }
        return raw;
    }

    private HdfException outside(long address, long length) {
        return new HdfException("bytes [" + Long.toUnsignedString(address) + ", +" + length
                + ") lie outside the file of " + fileSize + " bytes: truncated or corrupt");
    }

    private ByteBuffer read(long raw, int length) {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        try {
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, raw + buffer.position()) <= 0) {
                    throw new HdfException("the file ended at " + (raw + buffer.position()) + " while reading "
                            + length + " bytes at " + raw + ": was it truncated while open?");
                }
            }
        } catch (IOException e) {
            throw new HdfException("cannot read " + length + " bytes at " + raw + ": " + e, e);
        }
        return buffer.flip().order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public long getUserBlockSize() {
        return superblock.getBaseAddressByte();
    }

    @Override
    public Superblock getSuperblock() {
        return superblock;
    }

    @Override
    public FileChannel getFileChannel() {
        return channel;
    }

    @Override
    public int getSizeOfOffsets() {
        return superblock.getSizeOfOffsets();
    }

    @Override
    public int getSizeOfLengths() {
        return superblock.getSizeOfLengths();
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new HdfException("cannot close the file: " + e, e);
        }
    }

    @Override
    public long size() {
        return fileSize;
    }

    @Override
    public boolean inMemory() {
        return false;
    }
}
