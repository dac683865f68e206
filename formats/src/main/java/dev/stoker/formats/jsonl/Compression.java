package dev.stoker.formats.jsonl;

import dev.stoker.data.DataFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/** How a JSONL file is stored, by its first bytes (not its name: a renamed file is still what it is). */
enum Compression {
    NONE,
    GZIP,
    ZSTD;

    static Compression of(Path file) throws IOException {
        byte[] head = new byte[4];
        int n;
        try (InputStream in = DataFiles.newInputStream(file)) { // a FIFO is refused, not opened
            n = in.readNBytes(head, 0, 4);
        }
        if (n >= 2 && (head[0] & 0xFF) == 0x1F && (head[1] & 0xFF) == 0x8B) {
            return GZIP;
        }
        if (n == 4 && (head[0] & 0xFF) == 0x28 && (head[1] & 0xFF) == 0xB5 && (head[2] & 0xFF) == 0x2F
                && (head[3] & 0xFF) == 0xFD) {
            return ZSTD;
        }
        return NONE;
    }

    /** The refusal of a zstd file where zstd-jni is not there to read it. */
    static JsonlIndexException zstd(Path file) {
        return new JsonlIndexException(file, "is zstd-compressed, and zstd-jni (com.github.luben:zstd-jni, which"
                + " stoker-formats takes as an optional dependency: the JDK has no zstd decoder) is not on the"
                + " class or module path (" + ZstdLines.why() + "); add it to your build, or decompress the file"
                + " (zstd -d) or recompress it with gzip");
    }
}
