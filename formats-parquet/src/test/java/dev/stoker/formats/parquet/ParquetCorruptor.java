package dev.stoker.formats.parquet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * Damages a Parquet file in place, seeded: flipped bytes anywhere, bytes of the footer (the Thrift
 * metadata, where sizes and offsets live) overwritten or set to huge values, or the file cut short.
 * Returns what it did, for the case's log line.
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
        switch (r.nextInt(6)) {
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
}
