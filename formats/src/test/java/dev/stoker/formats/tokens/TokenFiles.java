package dev.stoker.formats.tokens;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/** Small token files for tests, with the values they hold. */
final class TokenFiles {
    private TokenFiles() {}

    /** {@code n} seeded uint16 tokens, little-endian. */
    static Path writeU16(Path path, int n, long seed) throws IOException {
        Files.write(path, bytes(valuesU16(n, seed), 2));
        return path;
    }

    static long[] valuesU16(int n, long seed) {
        Random rnd = new Random(seed);
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = rnd.nextInt(65536);
        }
        if (n > 1) {
            v[0] = 65535; // the top value must come back unsigned
            v[1] = 0;
        }
        return v;
    }

    static byte[] bytes(long[] values, int width) {
        ByteBuffer b = ByteBuffer.allocate(values.length * width).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) {
            if (width == 2) b.putShort((short) v);
            else b.putInt((int) v);
        }
        return b.array();
    }
}
