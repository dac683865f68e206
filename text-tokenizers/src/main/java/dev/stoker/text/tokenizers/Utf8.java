package dev.stoker.text.tokenizers;

/** UTF-8 character lengths, as SentencePiece's {@code IsValidDecodeUTF8} and {@code OneCharLen} judge them. */
final class Utf8 {
    private Utf8() {
    }

    /** The length of the well-formed character at {@code pos}, or 0 when the bytes there are not one. */
    static int validCharLength(byte[] s, int pos) {
        int b0 = s[pos] & 0xFF;
        if (b0 < 0x80) {
            return 1;
        }
        int n;
        int min;
        if ((b0 & 0xE0) == 0xC0) {
            n = 2;
            min = 0x80;
        } else if ((b0 & 0xF0) == 0xE0) {
            n = 3;
            min = 0x800;
        } else if ((b0 & 0xF8) == 0xF0) {
            n = 4;
            min = 0x10000;
        } else {
            return 0;
        }
        if (pos + n > s.length) {
            return 0;
        }
        int cp = b0 & (0x7F >> n);
        for (int k = 1; k < n; k++) {
            int b = s[pos + k] & 0xFF;
            if ((b & 0xC0) != 0x80) {
                return 0;
            }
            cp = cp << 6 | (b & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return 0;
        }
        return n;
    }

    /** SentencePiece's {@code OneCharLen}: the length the first byte announces, 1 for a stray byte. */
    static int oneCharLength(byte b) {
        int hi = (b & 0xFF) >>> 4;
        return hi < 0xC ? 1 : hi < 0xE ? 2 : hi == 0xE ? 3 : 4;
    }
}
