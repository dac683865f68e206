package dev.stoker.formats.folder;

import java.io.IOException;

/** An image folder that cannot be read as one: no class folders, a class with no files. The message names the path. */
public final class ImageFolderException extends IOException {
    public ImageFolderException(String message) {
        super(message);
    }
}
