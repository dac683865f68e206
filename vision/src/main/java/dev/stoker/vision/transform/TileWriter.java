package dev.stoker.vision.transform;

import java.util.Arrays;

/** Writes resampled rows into a {@link Tile}, mirrored when the geometry is flipped, black where it pads. */
final class TileWriter implements RowSink {
    private final byte[] px;
    private final int width;
    private final int imgStartX;
    private final int imgEndX;
    private final boolean flip;

    TileWriter(Tile tile, Geometry g) {
        tile.reset(g.width(), g.height());
        this.px = tile.pixels();
        this.width = g.width();
        this.imgStartX = g.x.imgStart;
        this.imgEndX = g.x.imgEnd;
        this.flip = g.isFlipped();
    }

    @Override
    public void row(int y, byte[] rgb, int offset) {
        int base = 3 * y * width;
        int n = imgEndX - imgStartX;
        if (imgStartX > 0 || imgEndX < width) {
            Arrays.fill(px, base, base + 3 * width, (byte) 0);
        }
        if (!flip) {
            System.arraycopy(rgb, offset, px, base + 3 * imgStartX, 3 * n);
            return;
        }
        for (int o = imgStartX, i = offset; o < imgEndX; o++, i += 3) {
            int d = base + 3 * (width - 1 - o);
            px[d] = rgb[i];
            px[d + 1] = rgb[i + 1];
            px[d + 2] = rgb[i + 2];
        }
    }

    byte[] pixels() {
        return px;
    }

    int width() {
        return width;
    }

    /**
     * Blackens row {@code y}'s padding columns beside the image's (none unless a crop reaches past
     * the image); the caller writes the image's: {@code [imgStartX, imgEndX)}, or
     * {@code [width - imgEndX, width - imgStartX)} when flipped.
     */
    void padSides(int y) {
        int from = flip ? width - imgEndX : imgStartX;
        int to = flip ? width - imgStartX : imgEndX;
        int base = 3 * y * width;
        Arrays.fill(px, base, base + 3 * from, (byte) 0);
        Arrays.fill(px, base + 3 * to, base + 3 * width, (byte) 0);
    }

    @Override
    public void paddingRow(int y) {
        Arrays.fill(px, 3 * y * width, 3 * (y + 1) * width, (byte) 0);
    }
}
