package dev.stoker.vision.transform;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.HalfFloats;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * The last step of every pipeline: rows of 8-bit RGB (HWC) become the planes of a {@code (3, H, W)}
 * slot (CHW), normalized, mirrored when the geometry is flipped, with padding where the image does
 * not reach. One bulk copy per plane row; nothing but the slot is written.
 *
 * <p>The slot's dtype decides the output: {@code F32} (torchvision's), {@code F16} or {@code BF16}
 * (the same values rounded), or {@code U8} (the pixels as they are, not normalized).
 */
final class SlotWriter implements RowSink {
    private final MemorySegment slot;
    private final DType dtype;
    private final int width;
    private final int height;
    private final int imgStartX;
    private final int imgEndX;
    private final boolean flip;
    private final Normalize normalize;
    private final float[][] table;       // F32 values per channel and 8-bit value
    private final short[][] halfTable;   // F16 / BF16 bit patterns
    private final float[] rowF;          // one plane row of floats
    private final short[] rowH;
    private final byte[] rowB;

    SlotWriter(Tensor slot, Normalize normalize, Geometry g, Scratch scratch) {
        this(slot, normalize, g.width(), g.height(), g.x.imgStart, g.x.imgEnd, g.isFlipped(), scratch);
    }

    /** A writer of whole rows, neither flipped nor padded: for a finished {@link Tile}. */
    SlotWriter(Tensor slot, Normalize normalize, int tileWidth, int tileHeight, Scratch scratch) {
        this(slot, normalize, tileWidth, tileHeight, 0, tileWidth, false, scratch);
    }

    private SlotWriter(Tensor slot, Normalize normalize, int gWidth, int gHeight, int imgStartX, int imgEndX,
                       boolean flip, Scratch scratch) {
        if (slot.shape().rank() != 3 || slot.shape().dim(0) != 3) {
            throw new IllegalArgumentException("an image slot is (3, H, W), not " + slot.shape());
        }
        this.slot = slot.segment();
        this.dtype = slot.dtype();
        this.height = (int) slot.shape().dim(1);
        this.width = (int) slot.shape().dim(2);
        if (gWidth != width || gHeight != height) {
            throw new IllegalArgumentException("the transforms make a " + gWidth + "x" + gHeight
                    + " image, but the slot is " + slot.shape() + " (3, H, W)");
        }
        this.imgStartX = imgStartX;
        this.imgEndX = imgEndX;
        this.flip = flip;
        this.normalize = normalize;
        switch (dtype) {
            case F32 -> {
                table = scratch.table(normalize);
                halfTable = null;
            }
            case F16, BF16 -> {
                table = scratch.table(normalize);
                halfTable = new short[3][256];
                for (int c = 0; c < 3; c++) {
                    for (int v = 0; v < 256; v++) {
                        halfTable[c][v] = dtype == DType.F16 ? HalfFloats.floatToF16(table[c][v])
                                : HalfFloats.floatToBf16(table[c][v]);
                    }
                }
            }
            case U8 -> {
                table = null;
                halfTable = null;
            }
            default -> throw new IllegalArgumentException("an image slot holds f32, f16, bf16 or u8, not " + dtype);
        }
        this.rowF = dtype == DType.F32 ? scratch.floats(width) : null;
        this.rowH = halfTable != null ? scratch.shorts(width) : null;
        this.rowB = dtype == DType.U8 ? scratch.bytes(width) : null;
    }

    /** Writes output row {@code y} from {@code rgb} at {@code from}: the image's pixels for columns [imgStartX, imgEndX). */
    @Override
    public void row(int y, byte[] rgb, int from) {
        for (int c = 0; c < 3; c++) {
            long offset = ((long) c * height + y) * width;
            switch (dtype) {
                case F32 -> {
                    float[] lut = table[c];
                    fillPadding(rowF, lut[0]);
                    planeRow(rowF, lut, rgb, from + c, imgStartX, imgEndX, flip ? width - 1 : -1);
                    MemorySegment.copy(rowF, 0, slot, ValueLayout.JAVA_FLOAT_UNALIGNED, offset * 4, width);
                }
                case F16, BF16 -> {
                    short[] lut = halfTable[c];
                    fillPadding(rowH, lut[0]);
                    for (int o = imgStartX, i = from + c; o < imgEndX; o++, i += 3) {
                        rowH[flip ? width - 1 - o : o] = lut[rgb[i] & 0xFF];
                    }
                    MemorySegment.copy(rowH, 0, slot, ValueLayout.JAVA_SHORT_UNALIGNED, offset * 2, width);
                }
                default -> {
                    fillPadding(rowB, (byte) 0);
                    for (int o = imgStartX, i = from + c; o < imgEndX; o++, i += 3) {
                        rowB[flip ? width - 1 - o : o] = rgb[i];
                    }
                    MemorySegment.copy(rowB, 0, slot, ValueLayout.JAVA_BYTE, offset, width);
                }
            }
        }
    }

    /**
     * Columns {@code [o0, o1)} of one plane's row from every third byte of {@code rgb} from
     * {@code i}, through {@code lut}; mirrored (column {@code o} to {@code mirror - o}) when
     * {@code mirror >= 0}. A method of its own, small, called per plane row: the JIT compiles
     * it within a new JVM's first image in a few milliseconds, where inside {@link #row} its
     * loops cost several compilations of all of row (on-stack replacement per loop; 30-60 ms of
     * a core each) while a cold first batch's images ran.
     */
    private static void planeRow(float[] out, float[] lut, byte[] rgb, int i, int o0, int o1, int mirror) {
        if (mirror >= 0) {
            for (int o = o0; o < o1; o++, i += 3) {
                out[mirror - o] = lut[rgb[i] & 0xFF];
            }
        } else {
            for (int o = o0; o < o1; o++, i += 3) {
                out[o] = lut[rgb[i] & 0xFF];
            }
        }
    }

    /** Whether the slot is f32, which a resampler may write itself: see {@link #padSides}. */
    boolean isF32() {
        return dtype == DType.F32;
    }

    MemorySegment segment() {
        return slot;
    }

    int width() {
        return width;
    }

    int height() {
        return height;
    }

    float mean(int c) {
        return normalize.meanOf(c);
    }

    float std(int c) {
        return normalize.stdOf(c);
    }

    /**
     * Of an f32 slot's row {@code y}, writes the padding columns beside the image's (none unless a
     * crop reaches past the image); the caller writes the image's columns: {@code [imgStartX, imgEndX)},
     * or {@code [width - imgEndX, width - imgStartX)} when flipped.
     */
    void padSides(int y) {
        int from = flip ? width - imgEndX : imgStartX;
        int to = flip ? width - imgStartX : imgEndX;
        if (from == 0 && to == width) {
            return;
        }
        for (int c = 0; c < 3; c++) {
            long offset = ((long) c * height + y) * width;
            float pad = table[c][0];
            for (int x = 0; x < from; x++) {
                slot.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, offset + x, pad);
            }
            for (int x = to; x < width; x++) {
                slot.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, offset + x, pad);
            }
        }
    }

    /** Writes row {@code y} as padding only (black, normalized). */
    @Override
    public void paddingRow(int y) {
        for (int c = 0; c < 3; c++) {
            long offset = ((long) c * height + y) * width;
            switch (dtype) {
                case F32 -> {
                    Arrays.fill(rowF, table[c][0]);
                    MemorySegment.copy(rowF, 0, slot, ValueLayout.JAVA_FLOAT_UNALIGNED, offset * 4, width);
                }
                case F16, BF16 -> {
                    Arrays.fill(rowH, halfTable[c][0]);
                    MemorySegment.copy(rowH, 0, slot, ValueLayout.JAVA_SHORT_UNALIGNED, offset * 2, width);
                }
                default -> slot.asSlice(offset, width).fill((byte) 0);
            }
        }
    }

    private void fillPadding(float[] row, float pad) {
        if (imgStartX > 0 || imgEndX < width) {
            Arrays.fill(row, pad);
        }
    }

    private void fillPadding(short[] row, short pad) {
        if (imgStartX > 0 || imgEndX < width) {
            Arrays.fill(row, pad);
        }
    }

    private void fillPadding(byte[] row, byte pad) {
        if (imgStartX > 0 || imgEndX < width) {
            Arrays.fill(row, pad);
        }
    }
}
