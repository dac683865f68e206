package dev.stoker.formats.folder;

import dev.stoker.data.Dataset;
import java.util.List;

/**
 * The files of an {@link ImageFolder} as a dataset that reads none of them: sample {@code i} is
 * file {@code i}'s path and label ({@link LabeledFile}), for a reader that reads each file itself,
 * into a buffer of its own (the vision module's {@code JpegDataset.ofFiles}). Thread-safe.
 *
 * <pre>{@code
 * Dataset<LabeledFile> files = ImageFolder.scan(Path.of("data/jpeg")).fileDataset();
 * LabeledFile f = files.get(0);   // f.path(), f.label()
 * }</pre>
 */
final class ImageFolderFiles implements Dataset<LabeledFile> {
    private final ImageFolder folder;
    private final List<LabeledFile> files;

    ImageFolderFiles(ImageFolder folder) {
        this.folder = folder;
        this.files = folder.files();
    }

    @Override
    public long size() {
        return files.size();
    }

    @Override
    public LabeledFile get(long index) {
        if (index < 0 || index >= files.size()) {
            throw new IndexOutOfBoundsException(folder.root() + ": file " + index + " is outside [0, "
                    + files.size() + ")");
        }
        return files.get((int) index);
    }

    @Override
    public String name() {
        return "image folder " + folder.root();
    }

    @Override
    public String toString() {
        return "ImageFolderFiles(" + folder.root() + ", " + files.size() + " files)";
    }
}
