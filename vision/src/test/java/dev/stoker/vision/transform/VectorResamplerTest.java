package dev.stoker.vision.transform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The Vector API path ({@link VectorResampler}: planes, permutes and gathers, normalize in float
 * lanes) gives the reference path's output to the bit, over random geometries: any source size,
 * crop, output size (whole vectors and tails), shrinking far (the gather groups) and enlarging,
 * flips, padding, a window decoded alone, every slot dtype and the tile.
 */
class VectorResamplerTest {

    @Test
    void vectorPathEqualsReferencePath() {
        assumeTrue(Mac.wide(), "the JVM has no vectors of 256 bits or more: only the reference path runs");
        SplittableRandom rnd = new SplittableRandom(19);
        DType[] dtypes = {DType.F32, DType.U8, DType.F16, DType.BF16};
        try (Arena arena = Arena.ofConfined()) {
            for (int trial = 0; trial < 400; trial++) {
                int w = 1 + rnd.nextInt(trial % 5 == 0 ? 900 : 200);
                int h = 1 + rnd.nextInt(trial % 7 == 0 ? 600 : 150);
                byte[] px = new byte[3 * w * h];
                rnd.nextBytes(px);
                if (trial % 4 == 0) {
                    // Saturated pixels: sums at the clip's edges.
                    for (int i = 0; i < px.length; i++) {
                        px[i] = rnd.nextBoolean() ? (byte) 255 : 0;
                    }
                }
                Geometry g = geometry(w, h, rnd);
                SourcePixels source = source(px, w, h, g, rnd, trial);
                Normalize n = trial % 3 == 0 ? Normalize.NONE : Normalize.IMAGENET;
                DType dtype = dtypes[trial % dtypes.length];
                Shape shape = Shape.of(3, g.height(), g.width());
                Tensor fast = Tensor.allocate(arena, dtype, shape);
                Tensor reference = Tensor.allocate(arena, dtype, shape);
                Scratch scratch = new Scratch();
                Resampler.render(source, g, n, fast, scratch);
                Resampler.renderReference(source, g, new SlotWriter(reference, n, g, scratch), scratch);
                assertThat(firstDifference(fast.toByteArray(), reference.toByteArray()))
                        .as("first byte differing, trial %d: %dx%d, %s, %s", trial, w, h, dtype, describe(g))
                        .isEqualTo(-1);

                Tile tile = new Tile();
                Tile referenceTile = new Tile();
                Resampler.render(source, g, tile, scratch);
                Resampler.renderReference(source, g, new TileWriter(referenceTile, g), scratch);
                assertThat(firstDifference(tile.toArray(), referenceTile.toArray()))
                        .as("first byte differing, trial %d, tile", trial).isEqualTo(-1);
            }
        }
    }

    /** A crop (RandomResizedCrop's, or any box), a resize to any size, a flip, a padding crop. */
    private static Geometry geometry(int w, int h, SplittableRandom rnd) {
        Geometry g = new Geometry(w, h);
        int outW = 1 + rnd.nextInt(rnd.nextBoolean() ? 80 : 260);
        int outH = 1 + rnd.nextInt(rnd.nextBoolean() ? 80 : 260);
        if (rnd.nextBoolean()) {
            new RandomResizedCrop(outH, outW).apply(g, SampleRandom.of(rnd.nextLong(), 0, 0));
        } else {
            int cw = 1 + rnd.nextInt(w);
            int ch = 1 + rnd.nextInt(h);
            g.crop(new CropBox(rnd.nextInt(h - ch + 1), rnd.nextInt(w - cw + 1), ch, cw));
            g.resize(outH, outW);
        }
        if (rnd.nextBoolean()) {
            g.flipHorizontal();
        }
        if (rnd.nextInt(4) == 0) {
            new CenterCrop(g.height() + rnd.nextInt(5), g.width() + rnd.nextInt(5)).apply(g, null);
        } else if (rnd.nextInt(4) == 0) {
            new CenterCrop(Math.max(1, g.height() - rnd.nextInt(5)), Math.max(1, g.width() - rnd.nextInt(5)))
                    .apply(g, null);
        }
        return g;
    }

    /** The whole image, or (every other trial) only the window the geometry reads, at its offset. */
    private static SourcePixels source(byte[] px, int w, int h, Geometry g, SplittableRandom rnd, int trial) {
        if (trial % 2 == 0) {
            return SourcePixels.whole(MemorySegment.ofArray(px), w, h);
        }
        CropBox need = g.sourceRegion();
        int left = Math.max(0, need.left() - rnd.nextInt(3));
        int top = Math.max(0, need.top() - rnd.nextInt(3));
        int right = Math.min(w, need.left() + need.width() + rnd.nextInt(3));
        int bottom = Math.min(h, need.top() + need.height() + rnd.nextInt(3));
        byte[] window = new byte[3 * (right - left) * (bottom - top)];
        for (int y = top; y < bottom; y++) {
            System.arraycopy(px, 3 * (y * w + left), window, 3 * (y - top) * (right - left), 3 * (right - left));
        }
        return new SourcePixels(MemorySegment.ofArray(window), right - left, bottom - top, left, top, w, h);
    }

    /** The first index where the arrays differ, -1 when they are equal (lengths included). */
    private static int firstDifference(byte[] a, byte[] b) {
        int i = java.util.Arrays.mismatch(a, b);
        return i;
    }

    private static String describe(Geometry g) {
        return g.width() + "x" + g.height() + " scale " + g.scaleX() + " x " + g.scaleY()
                + (g.isFlipped() ? ", flipped" : "");
    }

    @Test
    void tileWriteEqualsTheTableWrite() {
        assumeTrue(Mac.wide(), "the JVM has no vectors of 256 bits or more");
        SplittableRandom rnd = new SplittableRandom(23);
        try (Arena arena = Arena.ofConfined()) {
            for (int trial = 0; trial < 100; trial++) {
                int w = 1 + rnd.nextInt(120);
                int h = 1 + rnd.nextInt(20);
                byte[] px = new byte[3 * w * h];
                rnd.nextBytes(px);
                Tile tile = Tile.of(w, h, px);
                Normalize n = trial % 2 == 0 ? Normalize.IMAGENET
                        : new Normalize(new float[] {0.1f, 0.9f, -0.3f}, new float[] {0.7f, 1.3f, 0.01f});
                Tensor fast = Tensor.allocate(arena, DType.F32, Shape.of(3, h, w));
                Tensor table = Tensor.allocate(arena, DType.F32, Shape.of(3, h, w));
                Scratch scratch = new Scratch();
                Resampler.write(tile, n, fast, scratch);
                SlotWriter writer = new SlotWriter(table, n, w, h, scratch);
                for (int y = 0; y < h; y++) {
                    writer.row(y, px, 3 * y * w);
                }
                assertThat(firstDifference(fast.toByteArray(), table.toByteArray())).as("trial %d, %dx%d", trial, w, h)
                        .isEqualTo(-1);
            }
        }
    }

    @Test
    void paddingBesideWholeVectorsStaysBlack() {
        assumeTrue(Mac.wide(), "the JVM has no vectors of 256 bits or more");
        // 64 image columns (whole vectors at 8 and 16 lanes) with 3 padding columns on the right:
        // a vector store of the last pixels must not spill into them.
        SplittableRandom rnd = new SplittableRandom(8);
        byte[] px = new byte[3 * 90 * 70];
        rnd.nextBytes(px);
        for (boolean flip : new boolean[] {false, true}) {
            Geometry g = new Geometry(90, 70);
            g.resize(40, 64);
            if (flip) {
                g.flipHorizontal();
            }
            new CenterCrop(43, 70).apply(g, null);
            SourcePixels source = SourcePixels.whole(MemorySegment.ofArray(px), 90, 70);
            Scratch scratch = new Scratch();
            Tile tile = new Tile();
            Tile referenceTile = new Tile();
            Resampler.render(source, g, tile, scratch);
            Resampler.renderReference(source, g, new TileWriter(referenceTile, g), scratch);
            assertThat(firstDifference(tile.toArray(), referenceTile.toArray())).as("flip %s", flip).isEqualTo(-1);
        }
    }

    @Test
    void shrinkingFarUsesGathersAndStillAgrees() {
        assumeTrue(Mac.wide(), "the JVM has no vectors of 256 bits or more");
        // 2000 columns to 37: every group of output columns spans far more than two vectors.
        int w = 2000;
        int h = 9;
        byte[] px = new byte[3 * w * h];
        new SplittableRandom(4).nextBytes(px);
        Geometry g = new Geometry(w, h);
        g.resize(5, 37);
        g.flipHorizontal();
        try (Arena arena = Arena.ofConfined()) {
            Tensor fast = Tensor.allocate(arena, DType.F32, Shape.of(3, 5, 37));
            Tensor reference = Tensor.allocate(arena, DType.F32, Shape.of(3, 5, 37));
            Scratch scratch = new Scratch();
            SourcePixels source = SourcePixels.whole(MemorySegment.ofArray(px), w, h);
            Resampler.render(source, g, Normalize.IMAGENET, fast, scratch);
            Resampler.renderReference(source, g, new SlotWriter(reference, Normalize.IMAGENET, g, scratch), scratch);
            assertThat(fast.toByteArray()).isEqualTo(reference.toByteArray());
        }
    }
}
