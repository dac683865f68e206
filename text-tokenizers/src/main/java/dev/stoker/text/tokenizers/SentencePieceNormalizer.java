package dev.stoker.text.tokenizers;

import java.util.Arrays;

/**
 * SentencePiece's {@code Normalizer::Normalize} over UTF-8 bytes: each character replaced by the
 * precompiled charsmap's longest match (none under {@code identity}), runs of spaces collapsed and
 * trimmed ({@code remove_extra_whitespaces}), a space put in front ({@code add_dummy_prefix}, or
 * behind with {@code treat_whitespace_as_suffix}), and spaces written as {@code U+2581}
 * ({@code escape_whitespaces}). A malformed UTF-8 byte becomes {@code U+FFFD}, as there.
 */
final class SentencePieceNormalizer {
    static final byte[] SPACE_SYMBOL = {(byte) 0xE2, (byte) 0x96, (byte) 0x81};
    private static final byte[] REPLACEMENT = {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD};

    private final CharsMap charsMap; // null: identity
    private final boolean addDummyPrefix;
    private final boolean removeExtraWhitespaces;
    private final boolean escapeWhitespaces;
    private final boolean whitespaceAsSuffix;

    SentencePieceNormalizer(CharsMap charsMap, boolean addDummyPrefix, boolean removeExtraWhitespaces,
                            boolean escapeWhitespaces, boolean whitespaceAsSuffix) {
        this.charsMap = charsMap;
        this.addDummyPrefix = addDummyPrefix;
        this.removeExtraWhitespaces = removeExtraWhitespaces;
        this.escapeWhitespaces = escapeWhitespaces;
        this.whitespaceAsSuffix = whitespaceAsSuffix;
    }

    /** The normalized text, UTF-8, its length in {@code length[0]} (the array may be longer). */
    byte[] normalize(byte[] in, int[] length) {
        Out out = new Out(in.length * 3 + 3);
        int[] replacement = new int[3]; // from, to in the array prefix returns; input bytes consumed
        int pos = 0;
        if (removeExtraWhitespaces) {
            while (pos < in.length) {
                byte[] src = prefix(in, pos, replacement);
                if (replacement[1] - replacement[0] != 1 || src[replacement[0]] != ' ') {
                    break;
                }
                pos += replacement[2];
            }
        }
        if (pos == in.length) {
            length[0] = 0;
            return out.bytes;
        }
        if (!whitespaceAsSuffix && addDummyPrefix) {
            addSpace(out);
        }
        boolean prevSpace = removeExtraWhitespaces;
        while (pos < in.length) {
            byte[] src = prefix(in, pos, replacement);
            int from = replacement[0];
            int to = replacement[1];
            if (prevSpace) {
                while (from < to && src[from] == ' ') {
                    from++;
                }
            }
            if (from < to) {
                for (int k = from; k < to; k++) {
                    if (escapeWhitespaces && src[k] == ' ') {
                        out.add(SPACE_SYMBOL, 0, 3);
                    } else {
                        out.add(src[k]);
                    }
                }
                prevSpace = src[to - 1] == ' ';
            }
            pos += replacement[2];
            if (!removeExtraWhitespaces) {
                prevSpace = false;
            }
        }
        if (removeExtraWhitespaces) {
            if (escapeWhitespaces) {
                while (out.size >= 3 && out.bytes[out.size - 3] == SPACE_SYMBOL[0] && out.bytes[out.size - 2] == SPACE_SYMBOL[1]
                        && out.bytes[out.size - 1] == SPACE_SYMBOL[2]) {
                    out.size -= 3;
                }
            } else {
                while (out.size >= 1 && out.bytes[out.size - 1] == ' ') {
                    out.size--;
                }
            }
        }
        if (whitespaceAsSuffix && addDummyPrefix) {
            addSpace(out);
        }
        length[0] = out.size;
        return out.bytes;
    }

    // NormalizePrefix: the replacement of the character(s) at pos (in the returned array, [r[0], r[1])),
    // and how many input bytes it stands for (r[2]).
    private byte[] prefix(byte[] in, int pos, int[] r) {
        if (charsMap != null) {
            int[] value = new int[1];
            int n = charsMap.longestPrefix(in, pos, in.length, value);
            if (n > 0) {
                r[2] = n;
                r[0] = value[0];
                r[1] = charsMap.replacementEnd(value[0]);
                return charsMap.replacements();
            }
        }
        int n = Utf8.validCharLength(in, pos);
        if (n == 0) {
            r[2] = 1;
            r[0] = 0;
            r[1] = 3;
            return REPLACEMENT;
        }
        r[2] = n;
        r[0] = pos;
        r[1] = pos + n;
        return in;
    }

    private void addSpace(Out out) {
        if (escapeWhitespaces) {
            out.add(SPACE_SYMBOL, 0, 3);
        } else {
            out.add((byte) ' ');
        }
    }

    boolean addDummyPrefix() {
        return addDummyPrefix;
    }

    private static final class Out {
        byte[] bytes;
        int size;

        Out(int capacity) {
            bytes = new byte[capacity];
        }

        void add(byte b) {
            if (size == bytes.length) {
                bytes = Arrays.copyOf(bytes, bytes.length * 2 + 8);
            }
            bytes[size++] = b;
        }

        void add(byte[] b, int from, int to) {
            for (int i = from; i < to; i++) {
                add(b[i]);
            }
        }
    }
}
