package dev.stoker.formats.folder;

import java.nio.file.Path;

/**
 * One file of an image folder and its class: torchvision's {@code (path, class_index)} pair.
 *
 * @param path  the file
 * @param label the index of its class folder in sorted order
 */
public record LabeledFile(Path path, int label) {}
