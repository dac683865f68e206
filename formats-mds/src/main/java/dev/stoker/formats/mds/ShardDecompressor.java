package dev.stoker.formats.mds;

import dev.stoker.data.DataFiles;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * Turns a compressed shard file into its raw file once, as Streaming does on first use: streamed
 * through a small buffer into a temporary file beside the target, then renamed into place, so a
 * reader never sees a partial raw file and two processes racing write the same bytes.
 *
 * <p>The output is bounded by {@code raw_data.bytes} from the index: decompression stops with an
 * error as soon as it would pass that size, and fails if it ends short of it. Nothing is allocated
 * from the compressed data's own claims (a zstd frame's window is capped by zstd-jni's default).
 */
final class ShardDecompressor {
    private static final int BUFFER = 1 << 16;

    private ShardDecompressor() {
    }

    /** Whether Stoker can decompress {@code compression} ({@code "zstd"}, {@code "zstd:7"}, {@code "gz:9"}). */
    static boolean supported(String compression) {
        String family = family(compression);
        return family.equals("zstd") || family.equals("gz");
    }

    static String family(String compression) {
        int colon = compression.indexOf(':');
        return (colon < 0 ? compression : compression.substring(0, colon)).toLowerCase(Locale.ROOT);
    }

    /**
     * Decompresses {@code zip} into {@code target}, which must end up exactly {@code rawBytes} long.
     *
     * @param what names the shard for messages
     */
    static void decompress(String what, String compression, Path zip, Path target, long rawBytes) {
        String family = family(compression);
        if (!supported(compression)) {
            throw new MdsFormatException(what + ": compressed with '" + compression + "', which Stoker does not"
                    + " read (it reads zstd and gz); re-pack the dataset with compression='zstd' (or 'gz') in"
                    + " Streaming's MDSWriter, or decompress its shards to their raw_data files beside them");
        }
        Path tmp;
        try {
            tmp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
        } catch (AccessDeniedException e) {
            throw new MdsFormatException(what + ": cannot write the decompressed shard into " + target.getParent()
                    + " (read-only); give a cache directory (MdsOptions.cacheDir) for the decompressed shards", e);
        } catch (IOException e) {
            throw new MdsFormatException(what + ": cannot create a file in " + target.getParent() + ": " + e, e);
        }
        try {
            long written;
            try (InputStream raw = DataFiles.newInputStream(zip); // a FIFO is refused, not opened
                 InputStream in = family.equals("zstd") ? new ZstdInputStreamNoFinalizer(raw) : new GZIPInputStream(raw, BUFFER);
                 OutputStream out = Files.newOutputStream(tmp)) {
                written = copyBounded(what, in, out, rawBytes);
            } catch (MdsFormatException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                throw new MdsFormatException(what + ": the " + family + " data of " + zip.getFileName()
                        + " is damaged: " + e.getMessage(), e);
            }
            if (written != rawBytes) {
                throw new MdsFormatException(what + ": " + zip.getFileName() + " decompresses to " + written
                        + " bytes but raw_data.bytes in the index says " + rawBytes + " (truncated or damaged)");
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new MdsFormatException(what + ": cannot move the decompressed shard to " + target + ": " + e, e);
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // a temporary file left behind is harmless: the next open writes a new one
            }
        }
    }

    private static long copyBounded(String what, InputStream in, OutputStream out, long limit) throws IOException {
        byte[] buffer = new byte[BUFFER];
        long total = 0;
        int n;
        while ((n = in.read(buffer)) > 0) {
            if (total + n > limit) {
                throw new MdsFormatException(what + ": the compressed file decompresses to more than the "
                        + limit + " bytes raw_data.bytes in the index says (damaged, or the index is not its own)");
            }
            out.write(buffer, 0, n);
            total += n;
        }
        return total;
    }
}
