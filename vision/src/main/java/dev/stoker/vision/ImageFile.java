package dev.stoker.vision;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One encoded image on disk, not yet read, with its label: what {@link JpegDataset#ofFiles} reads
 * straight into its decoder's buffer.
 *
 * <pre>{@code
 * ImageFile f = new ImageFile(Path.of("data/jpeg/n01440764/img_0001.jpg"), 0);
 * }</pre>
 *
 * @param path  the file (JPEG, or PNG and the other formats ImageIO reads); named in errors
 * @param label the class index
 */
public record ImageFile(Path path, long label) {
    public ImageFile {
        Objects.requireNonNull(path, "path");
    }
}
