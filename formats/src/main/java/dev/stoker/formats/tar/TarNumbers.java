package dev.stoker.formats.tar;

/**
 * The numeric fields of a tar header: NUL- or space-terminated octal (POSIX), or GNU's base-256
 * (first byte with the high bit set, the rest big-endian), which tar uses for sizes of 8 GiB and
 * more. Every malformed field is an error rather than a guess: a size read wrongly would send the
 * reader into the middle of a member.
 */
final class TarNumbers {
    private TarNumbers() {
    }

    /**
     * The non-negative value of the field at {@code [from, from + length)} of {@code block}.
     *
     * @param field the field's name, for the message
     * @return the value, or -1 (with {@code error[0]} set) when the field is malformed
     */
    static long parse(byte[] block, int from, int length, String field, String[] error) {
        int first = block[from] & 0xFF;
        if ((first & 0x80) != 0) {
            return parseBase256(block, from, length, field, error);
        }
        int i = from;
        int end = from + length;
        while (i < end && (block[i] == ' ' || block[i] == 0)) {
            i++;
        }
        long value = 0;
        int digits = 0;
        for (; i < end; i++) {
            byte b = block[i];
            if (b == ' ' || b == 0) {
                break;
            }
            if (b < '0' || b > '7') {
                error[0] = field + " field holds " + show(block, from, length) + ", not an octal number";
                return -1;
            }
            if (++digits > 21) { // 21 octal digits = 63 bits
                error[0] = field + " field " + show(block, from, length) + " is too large";
                return -1;
            }
            value = (value << 3) | (b - '0');
        }
        for (; i < end; i++) {
            if (block[i] != ' ' && block[i] != 0) {
                error[0] = field + " field holds " + show(block, from, length) + ", not an octal number";
                return -1;
            }
        }
        return value;
    }

    private static long parseBase256(byte[] block, int from, int length, String field, String[] error) {
        int first = block[from] & 0xFF;
        if (first == 0xFF) {
            error[0] = field + " field is a negative base-256 number";
            return -1;
        }
        long value = first & 0x7F;
        for (int i = from + 1; i < from + length; i++) {
            if ((value >>> 55) != 0) {
                error[0] = field + " field is a base-256 number too large for 63 bits";
                return -1;
            }
            value = (value << 8) | (block[i] & 0xFF);
        }
        return value;
    }

    /** Writes {@code value} as zero-padded octal with a terminating NUL; false when it does not fit. */
    static boolean writeOctal(byte[] block, int from, int length, long value) {
        String octal = Long.toOctalString(value);
        if (octal.length() > length - 1) {
            return false;
        }
        int pad = length - 1 - octal.length();
        for (int i = 0; i < pad; i++) {
            block[from + i] = '0';
        }
        for (int i = 0; i < octal.length(); i++) {
            block[from + pad + i] = (byte) octal.charAt(i);
        }
        block[from + length - 1] = 0;
        return true;
    }

    private static String show(byte[] block, int from, int length) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = from; i < from + length; i++) {
            int b = block[i] & 0xFF;
            if (b >= 0x20 && b < 0x7F && b != '"' && b != '\\') {
                sb.append((char) b);
            } else {
                sb.append(String.format("\\x%02x", b));
            }
        }
        return sb.append('"').toString();
    }
}
