package dev.stoker.vision.decode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Counts the scans of a JPEG without decoding it, for the limit libjpeg-turbo applies with
 * {@code TJFLAG_LIMITSCANS} and ImageIO lacks. Each scan of a progressive JPEG is a pass over
 * every coefficient of the image, so a small file that repeats a scan thousands of times takes
 * minutes to decode. libjpeg-turbo refuses more than {@value #MAX_SCANS}; ImageIO (where the
 * library is missing, or cannot read the header) is held to the same limit here, and a lenient
 * libjpeg-turbo decode that stopped early asks here whether the limit is what stopped it.
 *
 * <pre>{@code
 * if (JpegScans.count(bytes, JpegScans.MAX_SCANS) > JpegScans.MAX_SCANS) { ... refuse ... }
 * }</pre>
 */
final class JpegScans {
    /** libjpeg-turbo's limit under {@code TJFLAG_LIMITSCANS}; real files have about ten. */
    static final int MAX_SCANS = 500;
    /** Why a file over the limit is refused, whichever decoder found it. */
    static final String TOO_MANY = "more than " + MAX_SCANS
            + " scans, each a pass over the whole image (a file made to take minutes to decode?)";

    private JpegScans() {}

    /**
     * The number of start-of-scan markers in {@code jpeg}, walking the marker segments as a
     * decoder does (entropy-coded data is skipped byte by byte: a 0xFF in it is always stuffed
     * or a marker); stops counting once past {@code limit}.
     */
    static int count(byte[] jpeg, int limit) {
        return count(MemorySegment.ofArray(jpeg), limit);
    }

    /** {@link #count(byte[], int)} of bytes on or off the heap (a mapped file, say). */
    static int count(MemorySegment jpeg, int limit) {
        long size = jpeg.byteSize();
        int scans = 0;
        long i = 2; // after SOI
        while (i + 1 < size) {
            if (at(jpeg, i) != 0xFF) {
                i++; // entropy-coded data, or junk a decoder skips too
                continue;
            }
            int marker = at(jpeg, i + 1);
            if (marker == 0xFF) {
                i++; // fill byte before a marker
            } else if (marker == 0x00 || marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8)) {
                i += 2; // a stuffed 0xFF, TEM, RSTn or SOI: no length follows
            } else if (marker == 0xD9) {
                break; // EOI
            } else {
                if (marker == 0xDA && ++scans > limit) {
                    break;
                }
                if (i + 3 >= size) {
                    break;
                }
                int length = (at(jpeg, i + 2) << 8) | at(jpeg, i + 3);
                i += 2 + Math.max(2, length);
            }
        }
        return scans;
    }

    private static int at(MemorySegment jpeg, long i) {
        return Byte.toUnsignedInt(jpeg.get(ValueLayout.JAVA_BYTE, i));
    }
}
