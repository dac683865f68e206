package dev.stoker.vision;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The files under src/test/resources/dev/stoker/vision, written by src/test/python/make_fixtures.py. */
public final class Fixtures {
    private Fixtures() {}

    public static byte[] bytes(String path) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/dev/stoker/vision/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + path);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static float[] floats(String path) {
        byte[] b = bytes(path);
        float[] out = new float[b.length / 4];
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(out);
        return out;
    }

    /** The lines of a cases.txt-like file, comments (after '#') and blank lines dropped, split on spaces. */
    public static List<String[]> table(String path) {
        List<String[]> rows = new ArrayList<>();
        for (String line : new String(bytes(path), StandardCharsets.UTF_8).split("\n")) {
            int hash = line.indexOf('#');
            String content = (hash >= 0 ? line.substring(0, hash) : line).trim();
            if (!content.isEmpty()) {
                rows.add(content.split("\\s+"));
            }
        }
        return rows;
    }

    /** The largest absolute difference between two byte arrays read as unsigned. */
    public static int maxDiff(byte[] a, byte[] b) {
        int max = 0;
        for (int i = 0; i < a.length; i++) {
            max = Math.max(max, Math.abs((a[i] & 0xFF) - (b[i] & 0xFF)));
        }
        return max;
    }

    public static double meanDiff(byte[] a, byte[] b) {
        long sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += Math.abs((a[i] & 0xFF) - (b[i] & 0xFF));
        }
        return (double) sum / a.length;
    }
}
