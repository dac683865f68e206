package dev.stoker.memory;

import java.util.Locale;

/** Byte counts written for a person: {@code 19.3 MB}, decimal units as {@code stoker bench} prints them. */
public final class Bytes {
    private Bytes() {}

    public static String format(long bytes) {
        if (bytes < 1000) {
            return bytes + " B";
        }
        String[] units = {"kB", "MB", "GB", "TB", "PB"};
        double v = bytes;
        int u = -1;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
