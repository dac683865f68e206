package dev.stoker.vision.transform;

/** Where the resampler hands each finished output row: the batch slot, or a {@link Tile} for pixel ops. */
interface RowSink {

    /** Output row {@code y} from {@code rgb} starting at {@code offset}: the image's pixels for its columns. */
    void row(int y, byte[] rgb, int offset);

    /** Row {@code y} is padding only (black). */
    void paddingRow(int y);
}
