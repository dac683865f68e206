package dev.stoker.text.tokenizers;

import java.nio.charset.StandardCharsets;

/**
 * Protocol Buffers' wire format, the little of it a SentencePiece model needs: varints, 32-bit
 * fields and length-delimited fields, every length checked against the bytes left (a model file
 * is untrusted). Written by hand because protobuf-java is a 1.9 MB jar with code generated from
 * a {@code .proto} for five messages read once at startup.
 */
final class ProtoReader {
    static final int VARINT = 0;
    static final int FIXED64 = 1;
    static final int BYTES = 2;
    static final int FIXED32 = 5;

    private final byte[] data;
    private final String where;
    private int pos;
    private final int end;

    ProtoReader(byte[] data, int from, int to, String where) {
        this.data = data;
        this.pos = from;
        this.end = to;
        this.where = where;
    }

    boolean more() {
        return pos < end;
    }

    /** The next field's key, {@code number << 3 | wireType}. */
    int key() {
        long k = varint();
        if (k > Integer.MAX_VALUE || (k >>> 3) == 0) {
            throw error("a field key " + k);
        }
        return (int) k;
    }

    long varint() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= end) {
                throw error("a varint cut short");
            }
            byte b = data[pos++];
            v |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return v;
            }
        }
        throw error("a varint longer than ten bytes");
    }

    int fixed32() {
        need(4);
        int v = (data[pos] & 0xFF) | (data[pos + 1] & 0xFF) << 8 | (data[pos + 2] & 0xFF) << 16 | (data[pos + 3] & 0xFF) << 24;
        pos += 4;
        return v;
    }

    /** A length-delimited field as a reader over its bytes; this reader moves past it. */
    ProtoReader message(String name) {
        int length = length();
        ProtoReader sub = new ProtoReader(data, pos, pos + length, where + " " + name);
        pos += length;
        return sub;
    }

    byte[] bytes() {
        int length = length();
        byte[] out = new byte[length];
        System.arraycopy(data, pos, out, 0, length);
        pos += length;
        return out;
    }

    String string() {
        int length = length();
        String s = new String(data, pos, length, StandardCharsets.UTF_8);
        pos += length;
        return s;
    }

    void skip(int wireType) {
        switch (wireType) {
            case VARINT -> varint();
            case FIXED64 -> {
                need(8);
                pos += 8;
            }
            case BYTES -> {
                int n = length(); // not "pos += length()": that would add to pos as it was before the length's varint
                pos += n;
            }
            case FIXED32 -> {
                need(4);
                pos += 4;
            }
            default -> throw error("wire type " + wireType + ", which a SentencePiece model does not use");
        }
    }

    private int length() {
        long n = varint();
        if (n < 0 || n > end - pos) {
            throw error("a field of " + n + " bytes where " + (end - pos) + " are left");
        }
        return (int) n;
    }

    private void need(int n) {
        if (end - pos < n) {
            throw error("a field cut short");
        }
    }

    IllegalArgumentException error(String what) {
        return new IllegalArgumentException(where + ": " + what + " at byte " + pos);
    }
}
