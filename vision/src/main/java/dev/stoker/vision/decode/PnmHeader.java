package dev.stoker.vision.decode;

/**
 * What a Netpbm header says, read as PIL reads it ({@code PpmImagePlugin}).
 *
 * @param magic      1 to 6: P1 (plain PBM), P2 (plain PGM), P3 (plain PPM), P4, P5, P6 (their binary forms)
 * @param width      pixels per row
 * @param height     rows
 * @param maxval     the largest sample value: 1 for PBM, else 1 to 65535
 * @param dataOffset where the pixels start: after the one whitespace byte that ends the header
 */
record PnmHeader(int magic, int width, int height, int maxval, long dataOffset) {
    boolean plain() {
        return magic <= 3;
    }

    boolean bitmap() {
        return magic == 1 || magic == 4;
    }

    /** Samples per pixel: 3 for PPM, 1 for PGM and PBM. */
    int channels() {
        return magic == 3 || magic == 6 ? 3 : 1;
    }

    /** For messages: "PPM (P6, maxval 255)". */
    String format() {
        String kind = bitmap() ? "PBM" : channels() == 3 ? "PPM" : "PGM";
        return kind + " (P" + magic + (bitmap() ? "" : ", maxval " + maxval) + ")";
    }
}
