package dev.stoker.vision.decode;

/**
 * Counts the scans of a JPEG without decoding it, for the limit libjpeg-turbo applies with
 * {@code TJFLAG_LIMITSCANS} and ImageIO lacks. Each scan of a progressive JPEG is a pass over
 * every coefficient of the image, so a small file that repeats a scan thousands of times takes
 * minutes to decode; libjpeg-turbo refuses more than {@value #MAX_SCANS}, and without this
 * check the fallback to ImageIO would then decode it anyway.
 *
 * <pre>{@code
 * if (JpegScans.count(bytes, JpegScans.MAX_SCANS) > JpegScans.MAX_SCANS) { ... refuse ... }
 * }</pre>
 */
final class JpegScans {
    /** libjpeg-turbo's limit under {@code TJFLAG_LIMITSCANS}; real files have about ten. */
    static final int MAX_SCANS = 500;

    private JpegScans() {}

    /**
     * The number of start-of-scan markers in {@code jpeg}, walking the marker segments as a
     * decoder does (entropy-coded data is skipped byte by byte: a 0xFF in it is always stuffed
     * or a marker); stops counting once past {@code limit}.
     */
    static int count(byte[] jpeg, int limit) {
        int scans = 0;
        int i = 2; // after SOI
        while (i + 1 < jpeg.length) {
            if ((jpeg[i] & 0xFF) != 0xFF) {
                i++; // entropy-coded data, or junk a decoder skips too
                continue;
            }
            int marker = jpeg[i + 1] & 0xFF;
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
                if (i + 3 >= jpeg.length) {
                    break;
                }
                int length = ((jpeg[i + 2] & 0xFF) << 8) | (jpeg[i + 3] & 0xFF);
                i += 2 + Math.max(2, length);
            }
        }
        return scans;
    }
}
