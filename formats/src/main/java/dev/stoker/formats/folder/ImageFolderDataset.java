package dev.stoker.formats.folder;

import dev.stoker.data.DataFiles;
import dev.stoker.data.Dataset;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.ByteBuffer;

/**
 * The files of an {@link ImageFolder} as a map-style dataset: sample {@code i} is file {@code i}'s
 * bytes, still encoded, and its class index ({@link ImageBytes}). Decoding, cropping and
 * normalising come from the vision module, as a {@code Datasets.map} over this dataset or a
 * fillable dataset built on {@link #file}.
 *
 * <p>Each {@link #get} reads the file whole; a file that cannot be read fails with an
 * {@link UncheckedIOException} naming it. Thread-safe.
 *
 * <pre>{@code
 * ImageFolderDataset ds = ImageFolder.scan(Path.of("data/jpeg")).dataset();
 * ImageBytes s = ds.get(0);     // s.bytes(): the JPEG; s.label(): 0
 * }</pre>
 */
public final class ImageFolderDataset implements Dataset<ImageBytes> {
    /** Larger files are refused rather than read into one array. */
    private static final long MAX_FILE_BYTES = Integer.MAX_VALUE - 8;

    private final ImageFolder folder;
    private final ImageFolderFiles files;

    ImageFolderDataset(ImageFolder folder) {
        this.folder = folder;
        this.files = new ImageFolderFiles(folder);
    }

    @Override
    public long size() {
        return files.size();
    }

    /** File {@code index} and its label, without reading it. */
    public LabeledFile file(long index) {
        return files.get(index);
    }

    @Override
    public ImageBytes get(long index) {
        LabeledFile f = file(index);
        return new ImageBytes(f.path(), read(f), f.label());
    }

    private static byte[] read(LabeledFile f) {
        try (SeekableByteChannel ch = DataFiles.openChannel(f.path())) { // a FIFO is refused, not opened
            long size = ch.size();
            if (size > MAX_FILE_BYTES) {
                throw new UncheckedIOException(new IOException(f.path() + ": " + size
                        + " bytes is too large to read as one image"));
            }
            // Read what the file holds now, not what size() said: it may change under us.
            ByteBuffer b = ByteBuffer.allocate((int) size);
            while (b.hasRemaining() && ch.read(b) >= 0) {
                // keep reading
            }
            if (b.hasRemaining()) {
                byte[] out = new byte[b.position()];
                b.flip().get(out);
                return out;
            }
            return b.array();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + f.path() + " (class " + f.label() + "): " + e, e);
        }
    }

    /** The folder scan this dataset reads. */
    public ImageFolder folder() {
        return folder;
    }

    @Override
    public String name() {
        return "image folder " + folder.root();
    }

    @Override
    public String toString() {
        return "ImageFolderDataset(" + folder.root() + ", " + size() + " files, " + folder.classes().size()
                + " classes)";
    }
}
