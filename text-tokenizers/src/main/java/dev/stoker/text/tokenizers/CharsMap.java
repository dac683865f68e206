package dev.stoker.text.tokenizers;

import java.util.Arrays;

/**
 * SentencePiece's precompiled normalization map ({@code NormalizerSpec.precompiled_charsmap}:
 * NFKC and friends, compiled by the trainer): a darts-clone double-array trie over UTF-8 byte
 * strings whose values are offsets into a block of NUL-terminated replacements. The blob is a
 * little-endian {@code uint32} trie size in bytes, the trie's 32-bit units, then the
 * replacements. Every offset is checked when it is read: the blob comes from an untrusted file.
 */
final class CharsMap {
    private final int[] units;
    private final byte[] replacements;
    private final String where;

    private CharsMap(int[] units, byte[] replacements, String where) {
        this.units = units;
        this.replacements = replacements;
        this.where = where;
    }

    static CharsMap parse(byte[] blob, String where) {
        if (blob.length < 4) {
            throw new IllegalArgumentException(where + ": a precompiled charsmap of " + blob.length + " bytes");
        }
        long trieBytes = (blob[0] & 0xFFL) | (blob[1] & 0xFFL) << 8 | (blob[2] & 0xFFL) << 16 | (blob[3] & 0xFFL) << 24;
        if (trieBytes % 4 != 0 || trieBytes == 0 || trieBytes > blob.length - 4) {
            throw new IllegalArgumentException(where + ": a precompiled charsmap's trie of " + trieBytes
                    + " bytes in a blob of " + blob.length);
        }
        int[] units = new int[(int) (trieBytes / 4)];
        for (int i = 0; i < units.length; i++) {
            int p = 4 + 4 * i;
            units[i] = (blob[p] & 0xFF) | (blob[p + 1] & 0xFF) << 8 | (blob[p + 2] & 0xFF) << 16 | (blob[p + 3] & 0xFF) << 24;
        }
        byte[] replacements = Arrays.copyOfRange(blob, 4 + (int) trieBytes, blob.length);
        return new CharsMap(units, replacements, where);
    }

    /**
     * The longest key that is a prefix of {@code text[from, to)}: its length in bytes, or 0 when
     * none is; {@code out[0]} gets the replacement's offset. darts-clone's
     * {@code commonPrefixSearch}, keeping the longest match as SentencePiece does.
     */
    int longestPrefix(byte[] text, int from, int to, int[] out) {
        int node = 0;
        int unit = unit(node);
        node ^= offset(unit);
        int longest = 0;
        for (int i = from; i < to; i++) {
            int label = text[i] & 0xFF;
            node ^= label;
            unit = unit(node);
            if ((unit & (0x80000000 | 0xFF)) != label) {
                break;
            }
            node ^= offset(unit);
            if (((unit >>> 8) & 1) != 0) {
                longest = i + 1 - from;
                out[0] = unit(node) & 0x7FFFFFFF;
            }
        }
        return longest;
    }

    /** The replacement at {@code offset}: bytes up to the next NUL. */
    int replacementEnd(int offset) {
        if (offset < 0 || offset >= replacements.length) {
            throw new IllegalArgumentException(where + ": a charsmap replacement at " + offset + " of "
                    + replacements.length + " bytes");
        }
        int e = offset;
        while (e < replacements.length && replacements[e] != 0) {
            e++;
        }
        return e;
    }

    byte[] replacements() {
        return replacements;
    }

    private int unit(int node) {
        if (node < 0 || node >= units.length) {
            throw new IllegalArgumentException(where + ": the charsmap trie points at unit " + node + " of " + units.length);
        }
        return units[node];
    }

    private static int offset(int unit) {
        return (unit >>> 10) << ((unit & (1 << 9)) >>> 6);
    }
}
