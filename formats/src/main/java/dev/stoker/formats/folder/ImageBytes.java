package dev.stoker.formats.folder;

import java.nio.file.Path;

/**
 * A sample of an {@link ImageFolderDataset}: the file's bytes, still encoded (the vision module
 * decodes them), its class index and where it came from.
 *
 * @param path  the file, for error messages and reports
 * @param bytes the whole file, as read
 * @param label the index of its class folder in sorted order
 */
public record ImageBytes(Path path, byte[] bytes, int label) {}
