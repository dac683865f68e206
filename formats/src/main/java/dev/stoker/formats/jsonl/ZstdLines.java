package dev.stoker.formats.jsonl;

import java.io.IOException;
import java.io.InputStream;

/**
 * zstd-compressed JSONL through zstd-jni, which stoker-formats takes as an optional dependency:
 * the JDK has no zstd decoder, and zstd is the codec the field uses (Hugging Face's and The
 * Pile's {@code .jsonl.zst}), so it is read with the library everyone reads it with rather than
 * a decoder written here. zstd-jni's classes are touched only in {@link #open}, after
 * {@link #available} said they are there. zstd-jni decodes from heap buffers filled from the
 * stream, never from a map.
 */
final class ZstdLines {
    /** Null when zstd-jni loads; else why not, for the refusal. */
    private static final String MISSING = probe();

    private ZstdLines() {
    }

    private static String probe() {
        try {
            Class.forName("com.github.luben.zstd.ZstdInputStreamNoFinalizer", true, ZstdLines.class.getClassLoader());
            return com.github.luben.zstd.util.Native.isLoaded() ? null : loadNative();
        } catch (ClassNotFoundException | NoClassDefFoundError e) {
            return "its classes are not there";
        } catch (LinkageError | RuntimeException e) {
            return "its native library does not load here: " + e.getMessage();
        }
    }

    private static String loadNative() {
        com.github.luben.zstd.util.Native.load();
        return null;
    }

    static boolean available() {
        return MISSING == null;
    }

    /** Why zstd cannot be read here (for the refusal), or "it is there". */
    static String why() {
        return MISSING == null ? "it is there" : MISSING;
    }

    /**
     * A zstd stream over {@code raw} (the frame header is read here). A damaged or cut-short
     * stream fails with {@link DamagedStreamException} (zstd-jni says "Truncated source" for a cut
     * one); the raw stream's own I/O errors pass through as they are.
     */
    static InputStream open(InputStream raw) throws IOException {
        com.github.luben.zstd.ZstdInputStreamNoFinalizer zstd;
        try {
            zstd = new com.github.luben.zstd.ZstdInputStreamNoFinalizer(raw);
        } catch (com.github.luben.zstd.ZstdIOException e) {
            throw damaged(e);
        }
        return new java.io.FilterInputStream(zstd) {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                try {
                    return zstd.read(b, off, len);
                } catch (com.github.luben.zstd.ZstdIOException e) {
                    throw damaged(e);
                }
            }
        };
    }

    private static DamagedStreamException damaged(com.github.luben.zstd.ZstdIOException e) {
        String m = String.valueOf(e.getMessage());
        return new DamagedStreamException(m.contains("Truncated") ? "the zstd stream ends early (the file is cut"
                + " short)" : "the zstd stream is damaged (" + m + ")", e);
    }
}
