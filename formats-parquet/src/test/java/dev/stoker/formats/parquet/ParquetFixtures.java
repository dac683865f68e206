package dev.stoker.formats.parquet;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** The fixtures pyarrow wrote (src/test/python/make_fixtures.py) and the values their rows hold. */
final class ParquetFixtures {
    static final int ROWS = 1000;
    static final int GROUP = 128;
    /** One file per compression and encoding, each holding rows 0..999. */
    static final List<String> FILES = List.of("snappy_dict.parquet", "zstd_plain.parquet", "gzip_dict.parquet",
            "none_plain.parquet", "none_dict_v2.parquet", "snappy_v2.parquet", "zstd_label_dict.parquet");

    private ParquetFixtures() {
    }

    static Path dir() {
        try {
            return Path.of(ParquetFixtures.class.getResource("/parquet").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Path file(String name) {
        return dir().resolve(name);
    }

    static String text(long i) {
        return i % 7 == 3 ? null : "row " + i + " " + "ab".repeat((int) (i % 5));
    }

    static int[] tokens(long i) {
        if (i % 11 == 4) {
            return null;
        }
        int[] t = new int[(int) (i % 5)];
        Arrays.setAll(t, k -> k);
        return t;
    }

    static int[] window(long i) {
        return new int[] {(int) i, (int) i + 1, (int) i + 2, (int) i + 3};
    }

    static byte[] blob(long i) {
        return new byte[] {(byte) (i % 256), (byte) ((i * 7) % 256)};
    }
}
