package dev.stoker.vision.transform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The pixel-op path (resample into a tile, then write it) gives the direct path's slot to the bit. */
class TilePathTest {

    @Test
    void tileThenWriteEqualsDirectRender() {
        SplittableRandom rnd = new SplittableRandom(11);
        try (Arena arena = Arena.ofConfined()) {
            for (int trial = 0; trial < 60; trial++) {
                int w = 8 + rnd.nextInt(120);
                int h = 8 + rnd.nextInt(120);
                byte[] px = new byte[3 * w * h];
                rnd.nextBytes(px);
                MemorySegment src = MemorySegment.ofArray(px);
                int out = 4 + rnd.nextInt(40);
                DType dtype = trial % 3 == 0 ? DType.U8 : trial % 3 == 1 ? DType.F32 : DType.BF16;
                Geometry a = geometry(w, h, out, trial);
                Geometry b = geometry(w, h, out, trial);
                Tensor direct = Tensor.allocate(arena, dtype, Shape.of(3, a.height(), a.width()));
                Tensor viaTile = Tensor.allocate(arena, dtype, Shape.of(3, a.height(), a.width()));
                Resampler.render(src, w, h, a, Normalize.IMAGENET, direct, new Scratch());
                Scratch scratch = new Scratch();
                Resampler.render(src, w, h, b, scratch.tile(), scratch);
                Resampler.write(scratch.tile(), Normalize.IMAGENET, viaTile, scratch);
                assertThat(viaTile.toByteArray()).as("trial %d", trial).isEqualTo(direct.toByteArray());
            }
        }
    }

    /** A crop and resize, flipped every other trial, padded (a CenterCrop larger than the image) every third. */
    private static Geometry geometry(int w, int h, int out, int trial) {
        Geometry g = new Geometry(w, h);
        new RandomResizedCrop(out).apply(g, SampleRandom.of(5, 0, trial));
        if (trial % 2 == 0) {
            g.flipHorizontal();
        }
        if (trial % 3 == 0) {
            new CenterCrop(out + 3, out + 5).apply(g, null);
        }
        return g;
    }

    @Test
    void tileOfCopiesItsPixels() {
        byte[] px = {1, 2, 3, 4, 5, 6};
        Tile t = Tile.of(2, 1, px);
        px[0] = 9;
        assertThat(t.toArray()).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(t.length()).isEqualTo(6);
    }
}
