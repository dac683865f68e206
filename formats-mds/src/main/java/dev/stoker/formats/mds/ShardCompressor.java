package dev.stoker.formats.mds;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * How {@link MdsWriter} compresses whole shards, by Streaming's names: {@code zstd[:LEVEL]}
 * (default level 3) and {@code gz[:LEVEL]} (default 9, as Python's gzip), the two that
 * {@link ShardDecompressor} reads. Streaming's {@code br}, {@code bz2} and {@code snappy} are
 * refused.
 *
 * @param family {@code zstd} or {@code gz}: also the compressed file's extension
 * @param level  the level, or -1 for the family's default
 */
record ShardCompressor(String family, int level) {

    /**
     * Parses a compression as Streaming's MDSWriter takes it.
     *
     * @throws IllegalArgumentException for another family, or a level out of its range
     */
    static ShardCompressor parse(String spec) {
        String family = ShardDecompressor.family(spec.trim());
        int max = switch (family) {
            case "zstd" -> 22;
            case "gz" -> 9;
            case "br", "bz2", "snappy" -> throw new IllegalArgumentException("Stoker writes MDS shards compressed with"
                    + " zstd or gz, not " + family + " (zstd is both smaller and faster to read)");
            default -> throw new IllegalArgumentException("unknown MDS compression '" + spec
                    + "': zstd, zstd:LEVEL, gz or gz:LEVEL");
        };
        String[] parts = spec.trim().split(":", -1);
        if (parts.length == 1) {
            return new ShardCompressor(family, -1);
        }
        try {
            int level = Integer.parseInt(parts[1]);
            if (parts.length == 2 && level >= 1 && level <= max) {
                return new ShardCompressor(family, level);
            }
        } catch (NumberFormatException e) {
            // the message below says what is wanted
        }
        throw new IllegalArgumentException("'" + spec + "': the " + family + " level is a whole number from 1 to " + max);
    }

    /** As the index records it: what was asked, {@code zstd} or {@code zstd:7}. */
    String spec() {
        return level < 0 ? family : family + ":" + level;
    }

    /** A stream that compresses into {@code out}, and closes it when closed. */
    OutputStream compressing(OutputStream out) throws IOException {
        if (family.equals("zstd")) {
            return new ZstdOutputStream(out, level < 0 ? 3 : level);
        }
        int gzLevel = level < 0 ? Deflater.BEST_COMPRESSION : level;
        return new GZIPOutputStream(out, 1 << 16) {
            {
                def.setLevel(gzLevel);
            }
        };
    }
}
