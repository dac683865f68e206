package dev.stoker.cli;

import java.util.Locale;
import picocli.CommandLine;

/**
 * A byte count as a person writes it: {@code 1000000}, {@code 500M}, {@code 1G}, {@code 64KiB}
 * (K, M, G, T are powers of 1024, with or without {@code B} or {@code iB}).
 */
final class ByteSize implements CommandLine.ITypeConverter<Long> {

    @Override
    public Long convert(String value) {
        return parse(value);
    }

    static long parse(String value) {
        String v = value.strip().toUpperCase(Locale.ROOT).replace("IB", "").replace("B", "");
        long unit = 1;
        if (!v.isEmpty()) {
            switch (v.charAt(v.length() - 1)) {
                case 'K' -> unit = 1L << 10;
                case 'M' -> unit = 1L << 20;
                case 'G' -> unit = 1L << 30;
                case 'T' -> unit = 1L << 40;
                default -> unit = 1;
            }
        }
        String number = unit == 1 ? v : v.substring(0, v.length() - 1);
        try {
            double n = Double.parseDouble(number);
            if (n <= 0 || n * unit >= Long.MAX_VALUE) {
                throw new NumberFormatException();
            }
            return (long) (n * unit);
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a size; write e.g. 500M or 1G");
        }
    }

    /** {@code 1.5 GiB}, {@code 320 KiB}, {@code 12 B}. */
    static String format(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s", v, units[u]);
    }
}
