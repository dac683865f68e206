package dev.stoker.formats.tar;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The header blocks of one regular-file member as {@link ShardWriter} writes it: ustar, mode 0644,
 * uid and gid 0, mtime 0 (like W5's shards, so that the same input gives the same bytes), no user
 * or group names. A name that does not fit ustar's name and prefix fields, or is not ASCII, and a
 * size of 8 GiB or more, go into a pax extended header before it, as Python's tarfile does.
 */
final class TarHeaderWriter {
    private static final long MAX_OCTAL_SIZE = 077777777777L;

    private TarHeaderWriter() {
    }

    /** The header blocks (512 bytes each; more than one when a pax header is needed). */
    static byte[] headers(String name, long size) {
        byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
        boolean ascii = nameBytes.length == name.length();
        String[] split = ascii ? splitUstar(name) : null;
        boolean bigSize = size > MAX_OCTAL_SIZE;
        if (split != null && !bigSize) {
            return block(split[0], split[1], size, (byte) '0');
        }
        List<byte[]> records = new ArrayList<>();
        if (split == null) {
            records.add(PaxHeaders.record("path", name));
        }
        if (bigSize) {
            records.add(PaxHeaders.record("size", Long.toString(size)));
        }
        int paxLength = records.stream().mapToInt(r -> r.length).sum();
        byte[] pax = new byte[paxLength];
        int at = 0;
        for (byte[] r : records) {
            System.arraycopy(r, 0, pax, at, r.length);
            at += r.length;
        }
        String fallback = asciiFallback(name);
        String[] fallbackSplit = splitUstar(fallback);
        byte[] paxHeader = block("", "././@PaxHeader", paxLength, (byte) 'x');
        byte[] real = block(fallbackSplit[0], fallbackSplit[1], bigSize ? 0 : size, (byte) '0');
        if (bigSize) {
            writeBase256(real, 124, 12, size);
            checksum(real);
        }
        int paxBlocks = (paxLength + TarHeader.BLOCK - 1) / TarHeader.BLOCK;
        byte[] out = new byte[TarHeader.BLOCK * (2 + paxBlocks)];
        System.arraycopy(paxHeader, 0, out, 0, TarHeader.BLOCK);
        System.arraycopy(pax, 0, out, TarHeader.BLOCK, paxLength);
        System.arraycopy(real, 0, out, TarHeader.BLOCK * (1 + paxBlocks), TarHeader.BLOCK);
        return out;
    }

    /** {prefix, name} when the name fits ustar's fields, else null. */
    private static String[] splitUstar(String name) {
        if (name.length() <= 100) {
            return new String[] {"", name};
        }
        for (int slash = name.indexOf('/'); slash >= 0; slash = name.indexOf('/', slash + 1)) {
            if (slash <= 155 && name.length() - slash - 1 <= 100 && slash < name.length() - 1) {
                return new String[] {name.substring(0, slash), name.substring(slash + 1)};
            }
        }
        return null;
    }

    /** A name for readers that ignore pax headers: ASCII, cut to ustar's name field. */
    private static String asciiFallback(String name) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < name.length() && sb.length() < 100; i++) {
            char c = name.charAt(i);
            sb.append(c < 0x80 ? c : '_');
        }
        return sb.toString();
    }

    private static byte[] block(String prefix, String name, long size, byte type) {
        byte[] b = new byte[TarHeader.BLOCK];
        put(b, 0, 100, name);
        TarNumbers.writeOctal(b, 100, 8, 0644);
        TarNumbers.writeOctal(b, 108, 8, 0);
        TarNumbers.writeOctal(b, 116, 8, 0);
        TarNumbers.writeOctal(b, 124, 12, size);
        TarNumbers.writeOctal(b, 136, 12, 0);
        b[156] = type;
        put(b, 257, 6, "ustar");
        b[263] = '0';
        b[264] = '0';
        put(b, 345, 155, prefix);
        checksum(b);
        return b;
    }

    private static void checksum(byte[] b) {
        for (int i = 148; i < 156; i++) {
            b[i] = ' ';
        }
        long sum = 0;
        for (byte x : b) {
            sum += x & 0xFF;
        }
        TarNumbers.writeOctal(b, 148, 7, sum); // six digits, NUL, then the space already there
    }

    private static void writeBase256(byte[] b, int from, int length, long value) {
        for (int i = from + length - 1; i > from; i--) {
            b[i] = (byte) value;
            value >>>= 8;
        }
        b[from] = (byte) 0x80;
    }

    private static void put(byte[] b, int from, int length, String ascii) {
        byte[] bytes = ascii.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(bytes, 0, b, from, Math.min(bytes.length, length));
    }
}
