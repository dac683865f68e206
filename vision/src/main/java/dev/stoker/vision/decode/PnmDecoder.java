package dev.stoker.vision.decode;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Netpbm images (PBM, PGM, PPM; plain and binary) into 8-bit RGB with PIL 9.4's numbers: samples
 * scaled as {@code round(v / maxval * 255)} (half to even, in doubles, as Python rounds), and a
 * PGM deeper than 8 bits read as PIL's mode {@code "I"} (scaled to 0..65535) whose
 * {@code convert("RGB")} clips at 255 rather than scaling. A PPM deeper than 8 bits is scaled to
 * 0..255. PBM's 1 is black.
 *
 * <p>By hand rather than through an ImageIO plugin: the format is four header tokens and raw
 * samples, and TwelveMonkeys' reader rounds down where PIL rounds (and reads maxvals of 128 to
 * 254 as signed bytes), so its pixels differ from PIL's wherever maxval is neither 255 nor 65535.
 *
 * <p>Untrusted input: the header is read within a fixed number of bytes, the size is checked
 * against the pixel limit by the caller, and a file too short to hold the pixels its header
 * promises is refused before any memory is taken for them (binary data cut short is decoded
 * with the rest black when truncated images are allowed, as PIL's {@code LOAD_TRUNCATED_IMAGES}
 * leaves it).
 */
final class PnmDecoder {
    static final String NAME = "PNM";
    /** PIL's limit on a header or plain-data token. */
    private static final int MAX_TOKEN = 10;

    private PnmDecoder() {}

    /** Whether {@code data} starts as PIL's PNM reader accepts: P1 to P6 and whitespace. */
    static boolean isPnm(MemorySegment data) {
        if (data.byteSize() < 3 || data.get(JAVA_BYTE, 0) != 'P') {
            return false;
        }
        int m = data.get(JAVA_BYTE, 1);
        return m >= '1' && m <= '6' && isSpace(data.get(JAVA_BYTE, 2));
    }

    /** Reads the header as PIL's {@code PpmImageFile._open} does. */
    static PnmHeader header(MemorySegment data) throws DecoderFailure {
        if (!isPnm(data)) {
            throw new DecoderFailure("not a PNM file (no P1 to P6 magic)");
        }
        int magic = data.get(JAVA_BYTE, 1) - '0';
        Cursor c = new Cursor(data, 3);
        int width = c.headerToken("width");
        int height = c.headerToken("height");
        int maxval = 1;
        if (magic != 1 && magic != 4) {
            maxval = c.headerToken("maxval");
            if (maxval < 1 || maxval > 65535) {
                throw new DecoderFailure("maxval must be 1 to 65535, not " + maxval);
            }
        }
        return new PnmHeader(magic, width, height, maxval, c.pos);
    }

    /** Decodes the pixels after {@code h} (read from {@code data}, size already checked) into {@code out}. */
    static DecodedImage decode(MemorySegment data, PnmHeader h, NativeBuffer out, boolean allowTruncated)
            throws DecoderFailure {
        long pixels = (long) h.width() * h.height();
        long available = data.byteSize() - h.dataOffset();
        if (h.plain()) {
            // Each sample is at least one byte (P1) or one digit and a space (P2, P3).
            long least = h.bitmap() ? pixels : 2 * pixels * h.channels() - 1;
            if (available < least) {
                throw new DecoderFailure(truncated(h, least, available));
            }
        } else if (available < binaryBytes(h) && !allowTruncated) {
            throw new DecoderFailure(truncated(h, binaryBytes(h), available));
        }
        MemorySegment dst = out.ensure(3 * pixels);
        if (h.plain()) {
            decodePlain(new Cursor(data, h.dataOffset()), h, dst);
        } else {
            decodeBinary(data.asSlice(h.dataOffset()), h, dst);
        }
        return new DecodedImage(dst, h.width(), h.height(), ScalingFactor.ONE, NAME);
    }

    private static long binaryBytes(PnmHeader h) {
        if (h.bitmap()) {
            return ((h.width() + 7L) / 8) * h.height();
        }
        return (long) h.width() * h.height() * h.channels() * (h.maxval() > 255 ? 2 : 1);
    }

    private static String truncated(PnmHeader h, long needed, long available) {
        return "damaged or truncated data: the " + h.format() + " header gives " + h.width() + "x" + h.height()
                + ", which needs " + (h.plain() ? "at least " : "") + needed + " bytes of pixels, and "
                + Math.max(0, available) + " follow it";
    }

    private static void decodeBinary(MemorySegment src, PnmHeader h, MemorySegment dst) {
        long have = src.byteSize();
        long pixels = (long) h.width() * h.height();
        if (h.bitmap()) {  // rows of bits, padded to a byte, 1 black; bytes cut off read as black
            long rowBytes = (h.width() + 7L) / 8;
            for (long y = 0; y < h.height(); y++) {
                for (int x = 0; x < h.width(); x++) {
                    long at = y * rowBytes + (x >>> 3);
                    int v = at < have && (src.get(JAVA_BYTE, at) & (0x80 >>> (x & 7))) == 0 ? 255 : 0;
                    putGrey(dst, y * h.width() + x, v);
                }
            }
            return;
        }
        int channels = h.channels();
        boolean wide = h.maxval() > 255;
        long count = Math.min(pixels * channels, wide ? have / 2 : have);  // less when cut short
        if (h.maxval() == 255 && channels == 3) {
            MemorySegment.copy(src, 0, dst, 0, count);
        } else {
            for (long i = 0; i < count; i++) {
                int v = wide ? Short.toUnsignedInt(src.get(BIG_ENDIAN_SHORT, 2 * i)) : Byte.toUnsignedInt(src.get(JAVA_BYTE, i));
                int rgb = h.maxval() == 255 ? v : toRgb(v, h);
                if (channels == 3) {
                    dst.set(JAVA_BYTE, i, (byte) rgb);
                } else {
                    putGrey(dst, i, rgb);
                }
            }
        }
        // Cut short (and allowed): the rest black, as PIL leaves it.
        long written = channels == 3 ? count : 3 * count;
        if (written < 3 * pixels) {
            dst.asSlice(written).fill((byte) 0);
        }
    }

    private static final ValueLayout.OfShort BIG_ENDIAN_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /**
     * One sample as PIL's {@code convert("RGB")} leaves it. A PGM over 8 bits is mode "I": scaled to
     * 0..65535 (exact at maxval 65535, PIL's raw "I;16B"), then clipped at 255. Else scaled to
     * 0..255 and clipped (a binary sample may exceed maxval; PIL clips it).
     */
    private static int toRgb(int v, PnmHeader h) {
        if (h.channels() == 1 && h.maxval() > 255) {
            int i = h.maxval() == 65535 ? v : (int) Math.min(65535, Math.rint((double) v / h.maxval() * 65535));
            return Math.min(255, i);
        }
        return (int) Math.min(255, Math.rint((double) v / h.maxval() * 255));
    }

    private static void decodePlain(Cursor c, PnmHeader h, MemorySegment dst) throws DecoderFailure {
        long pixels = (long) h.width() * h.height();
        if (h.bitmap()) {  // one digit per pixel, spaces optional
            for (long i = 0; i < pixels; i++) {
                int d = c.nextNonSpace();
                if (d != '0' && d != '1') {
                    throw new DecoderFailure(d < 0 ? "the plain PBM data ends after " + i + " of " + pixels + " pixels"
                            : "the plain PBM data holds '" + (char) d + "' where 0 or 1 belongs");
                }
                putGrey(dst, i, d == '1' ? 0 : 255);
            }
            return;
        }
        long samples = pixels * h.channels();
        for (long i = 0; i < samples; i++) {
            int v = c.dataToken(i, samples);
            if (v > h.maxval()) {
                throw new DecoderFailure("sample " + i + " is " + v + ", over the maxval of " + h.maxval());
            }
            int rgb = toRgb(v, h);
            if (h.channels() == 3) {
                dst.set(JAVA_BYTE, i, (byte) rgb);
            } else {
                putGrey(dst, i, rgb);
            }
        }
    }

    private static void putGrey(MemorySegment dst, long pixel, int v) {
        byte b = (byte) v;
        dst.set(JAVA_BYTE, 3 * pixel, b);
        dst.set(JAVA_BYTE, 3 * pixel + 1, b);
        dst.set(JAVA_BYTE, 3 * pixel + 2, b);
    }

    /** PIL's whitespace: space, tab, LF, VT, FF, CR. */
    private static boolean isSpace(int b) {
        return b == ' ' || (b >= 9 && b <= 13);
    }

    /** A read position in the file, with PIL's rules for tokens and comments. */
    private static final class Cursor {
        private final MemorySegment data;
        private final long size;
        long pos;

        Cursor(MemorySegment data, long pos) {
            this.data = data;
            this.size = data.byteSize();
            this.pos = pos;
        }

        private int next() {
            return pos < size ? Byte.toUnsignedInt(data.get(JAVA_BYTE, pos++)) : -1;
        }

        /** Skips a comment up to and including its CR or LF (or the end). */
        private void skipComment() {
            for (int b = next(); b != -1 && b != '\r' && b != '\n'; b = next()) {
                // PIL's _read_token skips to the end of the line
            }
        }

        /**
         * A header number as PIL's {@code _read_token} reads it: leading whitespace skipped, a
         * comment from '#' to the end of its line skipped (inside a token too), ended by one
         * whitespace byte (consumed) or the end, at most ten characters.
         */
        int headerToken(String what) throws DecoderFailure {
            StringBuilder token = new StringBuilder();
            while (token.length() <= MAX_TOKEN) {
                int b = next();
                if (b == -1) {
                    break;
                } else if (isSpace(b)) {
                    if (token.isEmpty()) {
                        continue;
                    }
                    break;
                } else if (b == '#') {
                    skipComment();
                    continue;
                }
                token.append((char) b);
            }
            if (token.isEmpty()) {
                throw new DecoderFailure("the header ends before its " + what);
            }
            if (token.length() > MAX_TOKEN) {
                throw new DecoderFailure("the header's " + what + " is longer than " + MAX_TOKEN + " characters");
            }
            return number(token, what);
        }

        /** The next byte that is neither whitespace nor in a comment, or -1 at the end. */
        int nextNonSpace() {
            for (int b = next(); b != -1; b = next()) {
                if (b == '#') {
                    skipComment();
                } else if (!isSpace(b)) {
                    return b;
                }
            }
            return -1;
        }

        /** Plain sample {@code index}: digits up to whitespace, a comment or the end. */
        int dataToken(long index, long samples) throws DecoderFailure {
            int b = nextNonSpace();
            if (b == -1) {
                throw new DecoderFailure("the plain data ends after " + index + " of " + samples + " samples");
            }
            StringBuilder token = new StringBuilder();
            while (b != -1 && !isSpace(b)) {
                if (b == '#') {  // PIL deletes a comment with its line end: the digits around it join
                    skipComment();
                } else if (token.length() == MAX_TOKEN) {
                    throw new DecoderFailure("sample " + index + " is longer than " + MAX_TOKEN + " characters");
                } else {
                    token.append((char) b);
                }
                b = next();
            }
            return number(token, "sample " + index);
        }

        private static int number(CharSequence token, String what) throws DecoderFailure {
            long v = 0;
            for (int i = 0; i < token.length(); i++) {
                char ch = token.charAt(i);
                if (ch < '0' || ch > '9') {
                    throw new DecoderFailure("the " + what + " is '" + printable(token) + "', not a number");
                }
                v = v * 10 + (ch - '0');  // at most ten digits: fits a long
            }
            if (token.isEmpty() || v > Integer.MAX_VALUE) {
                throw new DecoderFailure("the " + what + " is '" + printable(token) + "', not a size this reader takes");
            }
            return (int) v;
        }

        private static String printable(CharSequence token) {
            StringBuilder sb = new StringBuilder();
            token.chars().forEach(ch -> sb.append(ch >= 32 && ch < 127 ? String.valueOf((char) ch) : String.format("\\x%02x", ch)));
            return sb.toString();
        }
    }
}
