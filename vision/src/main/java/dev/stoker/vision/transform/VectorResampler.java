package dev.stoker.vision.transform;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The resampler's two passes with the Vector API, each channel in a plane of its own, so that
 * neither pass transposes anything and the f32 slot is written straight from vector registers.
 *
 * <p>Horizontal pass: each source row is widened to ints once; an output vector of one channel
 * (16 output columns with 512-bit vectors) is the sum over taps of a gather (the tap's source
 * pixel of each lane, {@code IntVector.fromArray} with an index map) times the lanes' weights,
 * held in a register until it is rounded to 8 bits. The gather tables are built once per image,
 * in the output's column order, so a horizontal flip costs nothing. Vertical pass: an output
 * vector is the weighted sum of the intermediate plane's rows above it, rounded, then (an f32
 * slot) normalized in float lanes, {@code (v / 255 - mean) / std} as {@link Normalize#apply}
 * computes it, each IEEE operation rounded the same, and stored into the slot's plane row. Other
 * slots and tiles get interleaved 8-bit rows through their {@link RowSink}.
 *
 * <p>The same integer sums as {@link ReferenceResampler} (lanes whose output has fewer taps than
 * the widest add zero weights): PIL's pixels to the bit. Loaded only when {@link Mac#wide()}.
 */
final class VectorResampler {
    private static final VectorSpecies<Integer> I = IntVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Float> F = VectorSpecies.of(float.class, I.vectorShape());
    private static final int L = I.length();
    /** Bytes as wide as an int vector: 4L of them, L pixels and a third. */
    private static final VectorSpecies<Byte> W = VectorSpecies.of(byte.class, I.vectorShape());
    private static final VectorShuffle<Byte> RED = channel(0);
    private static final VectorShuffle<Byte> GREEN = channel(1);
    private static final VectorShuffle<Byte> BLUE = channel(2);
    @SuppressWarnings("unchecked")
    private static final VectorShuffle<Byte>[] CHANNELS = new VectorShuffle[] {RED, GREEN, BLUE};
    /** Lane j < 3L takes byte 4(j / 3) + j % 3: L pixels packed an int each, to 3L interleaved bytes. */
    private static final VectorShuffle<Byte> PACK = pack();
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private VectorResampler() {}

    /** Lane j < L takes byte 3j + c: channel c of L interleaved pixels, first. */
    private static VectorShuffle<Byte> channel(int c) {
        int[] lanes = new int[W.length()];
        for (int j = 0; j < L; j++) {
            lanes[j] = 3 * j + c;
        }
        return VectorShuffle.fromArray(W, lanes, 0);
    }

    private static VectorShuffle<Byte> pack() {
        int[] lanes = new int[W.length()];
        for (int j = 0; j < 3 * L; j++) {
            lanes[j] = 4 * (j / 3) + j % 3;
        }
        return VectorShuffle.fromArray(W, lanes, 0);
    }

    static void render(SourcePixels source, Geometry g, Taps t, RowSink writer, Scratch scratch) {
        SlotWriter direct = writer instanceof SlotWriter sw && sw.isF32() ? sw : null;
        TileWriter tile = writer instanceof TileWriter tw ? tw : null;
        // The direct paths (an f32 slot, a tile) flip in the gather tables; another RowSink flips
        // the rows it is given.
        boolean flipHere = (direct != null || tile != null) && g.isFlipped();
        int outW = t.outW;
        int outH = t.outH;
        int span3 = 3 * t.spanX();
        int rows = t.spanY();
        int p = (outW + L - 1) / L * L;   // plane row length, whole vectors
        int plane = rows * p;

        // Tables, tap-major: lane m of tap k reads source column first(m) + k of the channel's
        // widened row with weight w[k * p + m]. A group of L lanes whose first columns lie within
        // L of its lowest (`base`) takes each tap from two vectors loaded at base + k, permuted by
        // rel = first - base (one vpermi2d); a wider one gathers (idx = first + k).
        int groups = p / L;
        int[] tapsOf = scratch.groupTaps(2 * groups);
        int maxTaps = 0;
        for (int i = 0; i < outW; i++) {
            maxTaps = Math.max(maxTaps, t.bx[2 * i + 1]);
        }
        int[] idx = scratch.gatherIndex(Math.max(1, maxTaps) * p);
        int[] w = scratch.gatherWeights(Math.max(1, maxTaps) * p);
        int[] rel = scratch.relative(p);
        for (int gi = 0; gi < groups; gi++) {
            int base = Integer.MAX_VALUE;
            int top = 0;
            int most = 0;
            for (int m = gi * L; m < (gi + 1) * L && m < outW; m++) {
                int i = flipHere ? outW - 1 - m : m;
                int first = t.bx[2 * i] - t.xLo;
                base = Math.min(base, first);
                top = Math.max(top, first);
                most = Math.max(most, t.bx[2 * i + 1]);
            }
            boolean permute = top - base < 2 * L;
            for (int m = gi * L; m < (gi + 1) * L; m++) {
                boolean real = m < outW;
                int i = flipHere ? outW - 1 - m : m;
                int first = real ? t.bx[2 * i] - t.xLo : base;
                int taps = real ? t.bx[2 * i + 1] : 0;
                rel[m] = first - base;
                for (int k = 0; k < maxTaps; k++) {
                    boolean on = k < taps;
                    idx[k * p + m] = on ? first + k : 0;
                    w[k * p + m] = on ? t.kx[i * t.ksx + k] : 0;
                }
            }
            tapsOf[2 * gi] = most;
            tapsOf[2 * gi + 1] = permute ? base : -1;
        }

        // Horizontal pass, into three planes of `rows` x p ints.
        int[] mid = scratch.intermediate(Math.max(1, 3 * plane));
        int spanX = t.spanX();
        int rowStride = spanX + 2 * L + maxTaps;   // room for the permute's second vector past the end
        int[] row = scratch.widenedRow(3 * rowStride);
        byte[] bytes = scratch.sourceRow(Math.max(1, span3));
        MemorySegment pixels = source.data();
        long stride = 3L * source.width();
        long left = 3L * (t.xLo - source.left());
        for (int r = 0; r < rows; r++) {
            widen(pixels, (t.yLo + r - source.top()) * stride + left, bytes, row, spanX, rowStride);
            horizontal(row, rowStride, rel, idx, w, tapsOf, p, mid, r * p, plane);
        }

        // Vertical pass.
        Geometry.Axis ay = g.y;
        for (int y = 0; y < ay.imgStart; y++) {
            writer.paddingRow(y);
        }
        int x0 = g.isFlipped() ? g.width() - g.x.imgEnd : g.x.imgStart;
        if (direct != null) {
            vertical(t, mid, p, plane, direct, ay.imgStart, x0);
        } else if (tile != null) {
            vertical(t, mid, p, plane, tile, ay.imgStart, x0);
        } else {
            vertical(t, mid, p, plane, writer, ay.imgStart, scratch);
        }
        for (int y = ay.imgEnd; y < ay.size; y++) {
            writer.paddingRow(y);
        }
    }

    /**
     * One widened source row into its row of the three planes, at {@code at}. A method of its own,
     * as each pass's row is: small and called hundreds of times an image, the JIT compiles it
     * within the first images (the Vector API is slow until then; one large method took a
     * hundred images to be compiled).
     */
    private static void horizontal(int[] row, int rowStride, int[] rel, int[] idx, int[] w, int[] tapsOf, int p,
                                   int[] mid, int at, int plane) {
        IntVector half = IntVector.broadcast(I, Resampler.HALF);
        for (int m = 0, gi = 0; m < p; m += L, gi++) {
            int n = tapsOf[2 * gi];
            int base = tapsOf[2 * gi + 1];
            if (base >= 0) {
                // The three channels together: the permutation and each tap's weights loaded once.
                IntVector perm = IntVector.fromArray(I, rel, m);
                IntVector r0 = half;
                IntVector r1 = half;
                IntVector r2 = half;
                for (int k = 0, b = base; k < n; k++, b++) {
                    IntVector wk = IntVector.fromArray(I, w, k * p + m);
                    r0 = r0.add(perm.selectFrom(IntVector.fromArray(I, row, b),
                            IntVector.fromArray(I, row, b + L)).mul(wk));
                    r1 = r1.add(perm.selectFrom(IntVector.fromArray(I, row, rowStride + b),
                            IntVector.fromArray(I, row, rowStride + b + L)).mul(wk));
                    r2 = r2.add(perm.selectFrom(IntVector.fromArray(I, row, 2 * rowStride + b),
                            IntVector.fromArray(I, row, 2 * rowStride + b + L)).mul(wk));
                }
                clip(r0).intoArray(mid, at + m);
                clip(r1).intoArray(mid, plane + at + m);
                clip(r2).intoArray(mid, 2 * plane + at + m);
            } else {
                for (int c = 0; c < 3; c++) {
                    IntVector acc = half;
                    for (int k = 0; k < n; k++) {
                        int o = k * p + m;
                        acc = acc.add(IntVector.fromArray(I, row, c * rowStride, idx, o)
                                .mul(IntVector.fromArray(I, w, o)));
                    }
                    clip(acc).intoArray(mid, c * plane + at + m);
                }
            }
        }
    }

    /** Row {@code j}'s output vector at column {@code m} of plane {@code base}, rounded to 8 bits. */
    private static IntVector column(Taps t, int[] mid, int p, int base, int j, int m) {
        int first = t.by[2 * j] - t.yLo;
        int k0 = j * t.ksy;
        IntVector acc = IntVector.broadcast(I, Resampler.HALF);
        for (int k = 0, n = t.by[2 * j + 1]; k < n; k++) {
            acc = acc.add(IntVector.fromArray(I, mid, base + (first + k) * p + m).mul(t.ky[k0 + k]));
        }
        return clip(acc);
    }

    /** The vertical pass into an f32 slot: normalized in float lanes, stored at column {@code x0} of each plane row. */
    private static void vertical(Taps t, int[] mid, int p, int plane, SlotWriter slot, int y0, int x0) {
        MemorySegment seg = slot.segment();
        int width = slot.width();
        int height = slot.height();
        int outW = t.outW;
        for (int j = 0; j < t.outH; j++) {
            int y = y0 + j;
            slot.padSides(y);
            for (int c = 0; c < 3; c++) {
                f32Row(t, mid, p, c * plane, j, seg, 4L * (((long) c * height + y) * width + x0), slot.mean(c),
                        slot.std(c));
            }
        }
    }

    /** Output row {@code j} of one plane, normalized, into the slot at byte {@code rowAt}. */
    private static void f32Row(Taps t, int[] mid, int p, int base, int j, MemorySegment seg, long rowAt, float mean,
                               float std) {
        int outW = t.outW;
        for (int m = 0; m < p; m += L) {
            FloatVector f = ((FloatVector) column(t, mid, p, base, j, m).convert(VectorOperators.I2F, 0))
                    .div(255f).sub(mean).div(std);
            if (m + L <= outW) {
                f.intoMemorySegment(seg, rowAt + 4L * m, ORDER);
            } else {
                f.intoMemorySegment(seg, rowAt + 4L * m, ORDER, F.indexInRange(m, outW));
            }
        }
    }

    /**
     * The vertical pass into a tile: each output vector's three channels packed into one int a
     * pixel, whose bytes a permute (vpermb) drops every fourth of: 3L interleaved bytes, stored
     * at column {@code x0} of each tile row.
     */
    private static void vertical(Taps t, int[] mid, int p, int plane, TileWriter tile, int y0, int x0) {
        byte[] px = tile.pixels();
        int width = tile.width();
        int outW = t.outW;
        for (int j = 0; j < t.outH; j++) {
            int y = y0 + j;
            int rowAt = 3 * (y * width + x0);
            for (int m = 0; m < p; m += L) {
                IntVector rgb = column(t, mid, p, 0, j, m)
                        .or(column(t, mid, p, plane, j, m).lanewise(VectorOperators.LSHL, 8))
                        .or(column(t, mid, p, 2 * plane, j, m).lanewise(VectorOperators.LSHL, 16));
                ByteVector bytes = rgb.reinterpretAsBytes().rearrange(PACK);
                int at = rowAt + 3 * m;
                int n = 3 * Math.min(L, outW - m);
                if (at + W.length() <= px.length && n == 3 * L) {
                    // The L bytes past the pixels are overwritten by the next vector, this row's
                    // padding, a later row, or lie in the array's slack past the tile.
                    bytes.intoArray(px, at);
                } else {
                    bytes.intoArray(px, at, W.indexInRange(0, n));
                }
            }
            tile.padSides(y);   // after the stores, which may spill past the image's columns
        }
    }

    /**
     * A finished tile into an f32 slot, normalized: {@link Resampler#write} with vectors, L
     * pixels at a time deinterleaved by three permutes, widened and normalized in float lanes.
     */
    static void write(Tile tile, SlotWriter slot) {
        MemorySegment seg = slot.segment();
        byte[] px = tile.pixels();
        int width = tile.width();
        int height = tile.height();
        float[] mean = {slot.mean(0), slot.mean(1), slot.mean(2)};
        float[] std = {slot.std(0), slot.std(1), slot.std(2)};
        VectorShuffle<Byte>[] channels = CHANNELS;
        for (int y = 0; y < height; y++) {
            int rowAt = 3 * y * width;
            int x = 0;
            for (int bound = width - (4 * L + 2) / 3; x <= bound; x += L) {
                ByteVector v = ByteVector.fromArray(W, px, rowAt + 3 * x);
                for (int c = 0; c < 3; c++) {
                    ((FloatVector) v.rearrange(channels[c]).convertShape(VectorOperators.ZERO_EXTEND_B2I, I, 0)
                            .convert(VectorOperators.I2F, 0))
                            .div(255f).sub(mean[c]).div(std[c])
                            .intoMemorySegment(seg, 4L * (((long) c * height + y) * width + x), ORDER);
                }
            }
            for (; x < width; x++) {
                for (int c = 0; c < 3; c++) {
                    float v = ((float) (px[rowAt + 3 * x + c] & 0xFF) / 255f - mean[c]) / std[c];
                    seg.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, ((long) c * height + y) * width + x, v);
                }
            }
        }
    }

    /** The vertical pass into a {@link RowSink}: interleaved 8-bit rows. */
    private static void vertical(Taps t, int[] mid, int p, int plane, RowSink writer, int y0, Scratch scratch) {
        int outW = t.outW;
        int[] three = scratch.acc(3 * p);
        byte[] out = scratch.outRow(3 * outW);
        for (int j = 0; j < t.outH; j++) {
            for (int c = 0; c < 3; c++) {
                for (int m = 0; m < p; m += L) {
                    column(t, mid, p, c * plane, j, m).intoArray(three, c * p + m);
                }
            }
            for (int i = 0, o = 0; i < outW; i++, o += 3) {
                out[o] = (byte) three[i];
                out[o + 1] = (byte) three[p + i];
                out[o + 2] = (byte) three[2 * p + i];
            }
            writer.row(y0 + j, out, 0);
        }
    }

    private static IntVector clip(IntVector acc) {
        return acc.lanewise(VectorOperators.ASHR, Resampler.PRECISION_BITS).max(0).min(255);
    }

    /** Bytes {@code [at, at + n)} of {@code pixels} into {@code row} as ints 0..255. */
    private static void widen(MemorySegment pixels, long at, byte[] bytes, int[] row, int px, int rowStride) {
        MemorySegment.copy(pixels, ValueLayout.JAVA_BYTE, at, bytes, 0, 3 * px);
        int x = 0;
        int q = 0;
        // L pixels at a time: one load of 4L bytes, three byte permutes (vpermb), three widenings.
        for (int bound = px - (4 * L + 2) / 3; x <= bound; x += L, q += 3 * L) {
            ByteVector v = ByteVector.fromArray(W, bytes, q);
            ((IntVector) v.rearrange(RED).convertShape(VectorOperators.ZERO_EXTEND_B2I, I, 0)).intoArray(row, x);
            ((IntVector) v.rearrange(GREEN).convertShape(VectorOperators.ZERO_EXTEND_B2I, I, 0))
                    .intoArray(row, rowStride + x);
            ((IntVector) v.rearrange(BLUE).convertShape(VectorOperators.ZERO_EXTEND_B2I, I, 0))
                    .intoArray(row, 2 * rowStride + x);
        }
        for (; x < px; x++, q += 3) {
            row[x] = bytes[q] & 0xFF;
            row[rowStride + x] = bytes[q + 1] & 0xFF;
            row[2 * rowStride + x] = bytes[q + 2] & 0xFF;
        }
    }
}
