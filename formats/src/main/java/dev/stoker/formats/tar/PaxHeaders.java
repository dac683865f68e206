package dev.stoker.formats.tar;

import java.nio.charset.StandardCharsets;

/**
 * The records of a pax extended header ({@code "%d %s=%s\n"}, the length counting the whole
 * record). Only the keys that change where the next member's data lies or what it is called are
 * kept: {@code path} and {@code size}. Others (mtime, uid, linkpath, ...) are skipped.
 *
 * @param path the member's name, or null when not given
 * @param size the member's size, or -1 when not given
 */
record PaxHeaders(String path, long size) {

    static PaxHeaders parse(byte[] data, String source, long offset) {
        String path = null;
        long size = -1;
        int pos = 0;
        while (pos < data.length) {
            if (data[pos] == 0) { // padding some writers leave after the last record
                break;
            }
            int space = pos;
            long length = 0;
            while (space < data.length && data[space] >= '0' && data[space] <= '9' && length < data.length) {
                length = length * 10 + (data[space] - '0');
                space++;
            }
            if (space == pos || space >= data.length || data[space] != ' ' || length <= space - pos + 1
                    || pos + length > data.length || data[(int) (pos + length - 1)] != '\n') {
                throw new TarException(source, offset, "malformed pax extended header record at byte "
                        + pos + " of the header's data");
            }
            int end = (int) (pos + length - 1);
            int eq = space + 1;
            while (eq < end && data[eq] != '=') {
                eq++;
            }
            if (eq == end) {
                throw new TarException(source, offset, "pax extended header record at byte " + pos
                        + " has no '='");
            }
            String key = new String(data, space + 1, eq - space - 1, StandardCharsets.UTF_8);
            String value = new String(data, eq + 1, end - eq - 1, StandardCharsets.UTF_8);
            if (key.equals("path")) {
                path = value;
            } else if (key.equals("size")) {
                size = parseSize(value, source, offset);
            }
            pos = (int) (pos + length);
        }
        return new PaxHeaders(path, size);
    }

    private static long parseSize(String value, String source, long offset) {
        if (value.isEmpty() || value.length() > 18 || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new TarException(source, offset, "pax size \"" + value + "\" is not a size");
        }
        return Long.parseLong(value);
    }

    /** Encodes one record, whose length prefix counts itself. */
    static byte[] record(String key, String value) {
        byte[] body = (" " + key + "=" + value + "\n").getBytes(StandardCharsets.UTF_8);
        int length = body.length + 1;
        while (length != body.length + Integer.toString(length).length()) {
            length = body.length + Integer.toString(length).length();
        }
        byte[] prefix = Integer.toString(length).getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[length];
        System.arraycopy(prefix, 0, out, 0, prefix.length);
        System.arraycopy(body, 0, out, prefix.length, body.length);
        return out;
    }
}
