package dev.stoker.formats.parquet;

import dev.hardwood.InputFile;
import dev.hardwood.metadata.ColumnChunk;
import dev.hardwood.reader.ParquetFileReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * Damages a Parquet file in place, seeded: flipped bytes anywhere, bytes of the footer (the Thrift
 * metadata, where sizes and offsets live) overwritten or set to huge values, the first page header
 * of a column chunk (where a page's compressed and uncompressed sizes live) given a huge size or a
 * flipped byte, or the file cut short. Returns what it did, for the case's log line.
 */
final class ParquetCorruptor {
    private ParquetCorruptor() {
    }

    static String damage(Path file, long seed) throws IOException {
        Random r = new Random(seed);
        byte[] b = Files.readAllBytes(file);
        int footerLength = ByteBuffer.wrap(b, b.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        int footerStart = Math.max(4, b.length - 8 - footerLength);
        String what;
        // every seventh seed damages a page header; the others keep the damage they always had
        // (tests pin fuzz cases by seed)
        switch (Math.floorMod(seed, 7) == 5 ? 6 : r.nextInt(6)) {
            case 0 -> {
                int n = 1 + r.nextInt(8);
                for (int k = 0; k < n; k++) {
                    b[4 + r.nextInt(b.length - 12)] ^= (byte) (1 + r.nextInt(255));
                }
                what = "flip " + n + " bytes anywhere";
            }
            case 1, 2 -> {
                int n = 1 + r.nextInt(4);
                for (int k = 0; k < n; k++) {
                    b[footerStart + r.nextInt(b.length - 8 - footerStart)] ^= (byte) (1 + r.nextInt(255));
                }
                what = "flip " + n + " footer bytes";
            }
            case 3 -> {
                // a Thrift varint of a huge value where a size or count was: a row group claiming billions of rows
                int at = footerStart + r.nextInt(b.length - 8 - footerStart - 5);
                byte[] huge = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0x0F};
                System.arraycopy(huge, 0, b, at, Math.min(huge.length, b.length - 8 - at));
                what = "huge varint at " + at;
            }
            case 4 -> {
                int n = 1 + r.nextInt(16);
                int at = 4 + r.nextInt(footerStart - 4);
                for (int k = 0; k < n && at + k < b.length; k++) {
                    b[at + k] = (byte) r.nextInt(256);
                }
                what = "overwrite " + n + " data bytes at " + at;
            }
            case 6 -> {
                // a page header opens with its type, then its uncompressed and compressed sizes (Thrift
                // compact i32 varints, the first at byte 3): a size of 2^30 there, or one byte flipped
                long[] starts = chunkStarts(file);
                int at = (int) starts[r.nextInt(starts.length)];
                if (r.nextBoolean()) {
                    at += r.nextBoolean() ? 3 : 2 + r.nextInt(6);
                    byte[] huge = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x08};
                    System.arraycopy(huge, 0, b, at, huge.length);
                    what = "page header size 2^30 at " + at;
                } else {
                    at += r.nextInt(16);
                    b[at] ^= (byte) (1 + r.nextInt(255));
                    what = "flip page header byte at " + at;
                }
            }
            default -> {
                int keep = r.nextInt(b.length);
                byte[] cut = new byte[keep];
                System.arraycopy(b, 0, cut, 0, keep);
                b = cut;
                what = "cut to " + keep + " bytes";
            }
        }
        Files.write(file, b);
        return what;
    }

    /** Where each column chunk of the undamaged {@code file} starts (its first page header). */
    private static long[] chunkStarts(Path file) throws IOException {
        try (ParquetFileReader reader = ParquetFileReader.open(InputFile.of(file))) {
            return reader.getFileMetaData().rowGroups().stream().flatMap(g -> g.columns().stream())
                    .mapToLong(ColumnChunk::chunkStartOffset).toArray();
        }
    }
}
