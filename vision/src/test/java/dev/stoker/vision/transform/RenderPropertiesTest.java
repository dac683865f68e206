package dev.stoker.vision.transform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.HalfFloats;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Laws of rendering: constants stay constant, flips mirror exactly, normalize is exact, only the slot is written. */
class RenderPropertiesTest {

    private static MemorySegment image(int w, int h, long seed) {
        byte[] px = new byte[w * h * 3];
        new SplittableRandom(seed).nextBytes(px);
        return MemorySegment.ofArray(px);
    }

    private static Geometry randomGeometry(int w, int h, SampleRandom r, int out) {
        Geometry g = new Geometry(w, h);
        new RandomResizedCrop(out).apply(g, r);
        return g;
    }

    @Test
    void constantImageGivesConstantOutput() {
        SplittableRandom sizes = new SplittableRandom(3);
        try (Arena arena = Arena.ofConfined()) {
            for (int trial = 0; trial < 50; trial++) {
                int w = 1 + sizes.nextInt(300);
                int h = 1 + sizes.nextInt(300);
                int out = 1 + sizes.nextInt(64);
                byte[] px = new byte[w * h * 3];
                for (int i = 0; i < px.length; i += 3) {
                    px[i] = (byte) 17;
                    px[i + 1] = (byte) 200;
                    px[i + 2] = (byte) 255;
                }
                Geometry g = randomGeometry(w, h, SampleRandom.of(trial, 0, 0), out);
                Tensor slot = Tensor.allocate(arena, DType.U8, Shape.of(3, out, out));
                Resampler.render(MemorySegment.ofArray(px), w, h, g, Normalize.NONE, slot, new Scratch());
                byte[] planes = slot.toByteArray();
                for (int i = 0; i < out * out; i++) {
                    assertThat(planes[i] & 0xFF).isEqualTo(17);
                    assertThat(planes[out * out + i] & 0xFF).isEqualTo(200);
                    assertThat(planes[2 * out * out + i] & 0xFF).isEqualTo(255);
                }
            }
        }
    }

    @Test
    void flipMirrorsExactly() {
        try (Arena arena = Arena.ofConfined()) {
            for (int trial = 0; trial < 20; trial++) {
                int w = 50 + trial * 7;
                int h = 40 + trial * 5;
                MemorySegment px = image(w, h, trial);
                Geometry plain = randomGeometry(w, h, SampleRandom.of(9, 0, trial), 24);
                Geometry flipped = randomGeometry(w, h, SampleRandom.of(9, 0, trial), 24);
                flipped.flipHorizontal();
                Tensor a = Tensor.allocate(arena, DType.F32, Shape.of(3, 24, 24));
                Tensor b = Tensor.allocate(arena, DType.F32, Shape.of(3, 24, 24));
                Resampler.render(px, w, h, plain, Normalize.IMAGENET, a, new Scratch());
                Resampler.render(px, w, h, flipped, Normalize.IMAGENET, b, new Scratch());
                for (int c = 0; c < 3; c++) {
                    for (int y = 0; y < 24; y++) {
                        for (int x = 0; x < 24; x++) {
                            assertThat(b.get(c, y, x)).isEqualTo(a.get(c, y, 23 - x));
                        }
                    }
                }
            }
        }
    }

    @Test
    void cropAfterAFlipIsMirrored() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment px = image(30, 20, 5);
            Geometry g = new Geometry(30, 20);
            g.flipHorizontal();
            g.crop(new CropBox(2, 3, 10, 12));   // columns 3..14 of the mirrored image = 15..26 of the source
            Tensor out = Tensor.allocate(arena, DType.U8, Shape.of(3, 10, 12));
            Resampler.render(px, 30, 20, g, Normalize.NONE, out, new Scratch());
            for (int y = 0; y < 10; y++) {
                for (int x = 0; x < 12; x++) {
                    int sx = 29 - (3 + x);
                    int expected = Byte.toUnsignedInt(px.get(java.lang.foreign.ValueLayout.JAVA_BYTE, ((2L + y) * 30 + sx) * 3 + 1));
                    assertThat((int) out.get(1, y, x)).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void normalizeIsExactAndEveryDtypeAgrees() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment px = image(120, 90, 11);
            Geometry g = randomGeometry(120, 90, SampleRandom.of(1, 1, 1), 32);
            Tensor u8 = Tensor.allocate(arena, DType.U8, Shape.of(3, 32, 32));
            Tensor f32 = Tensor.allocate(arena, DType.F32, Shape.of(3, 32, 32));
            Tensor f16 = Tensor.allocate(arena, DType.F16, Shape.of(3, 32, 32));
            Tensor bf16 = Tensor.allocate(arena, DType.BF16, Shape.of(3, 32, 32));
            for (Tensor t : new Tensor[] {u8, f32, f16, bf16}) {
                Resampler.render(px, 120, 90, g, Normalize.IMAGENET, t, new Scratch());
            }
            float[] mean = {0.485f, 0.456f, 0.406f};
            float[] std = {0.229f, 0.224f, 0.225f};
            for (int i = 0; i < 3 * 32 * 32; i++) {
                int c = i / (32 * 32);
                int v = (int) u8.getLong(i);
                float expected = ((float) v / 255f - mean[c]) / std[c];
                assertThat(f32.getFloat(i)).isEqualTo(expected);
                assertThat(f16.segment().get(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, 2L * i))
                        .isEqualTo(HalfFloats.floatToF16(expected));
                assertThat(bf16.segment().get(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, 2L * i))
                        .isEqualTo(HalfFloats.floatToBf16(expected));
            }
        }
    }

    @Test
    void writesOnlyItsSlot() {
        try (Arena arena = Arena.ofConfined()) {
            Tensor batch = Tensor.allocate(arena, DType.F32, Shape.of(4, 3, 16, 16));
            batch.segment().fill((byte) 0x7F);   // a sentinel pattern
            MemorySegment px = image(64, 48, 2);
            Geometry fits = new Geometry(64, 48);
            new RandomResizedCrop(16).apply(fits, SampleRandom.of(0, 0, 0));
            Resampler.render(px, 64, 48, fits, Normalize.IMAGENET, batch.select(2), new Scratch());
            byte[] all = batch.segment().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            int row = 3 * 16 * 16 * 4;
            for (int i = 0; i < all.length; i++) {
                if (i < 2 * row || i >= 3 * row) {
                    assertThat(all[i]).as("byte %d outside slot 2", i).isEqualTo((byte) 0x7F);
                }
            }
            float[] written = batch.select(2).toFloatArray();
            for (float f : written) {
                assertThat(f).isBetween(-2.2f, 2.7f);
            }
        }
    }

    @Test
    void paddingIsNormalizedBlack() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment px = image(10, 10, 4);
            Geometry g = new Geometry(10, 10);
            new CenterCrop(14, 16).apply(g, null);   // 2 rows above, 3 columns left
            Tensor out = Tensor.allocate(arena, DType.F32, Shape.of(3, 14, 16));
            Resampler.render(px, 10, 10, g, Normalize.IMAGENET, out, new Scratch());
            for (int c = 0; c < 3; c++) {
                float black = Normalize.IMAGENET.apply(c, 0);
                assertThat(out.get(c, 0, 5)).isEqualTo(black);
                assertThat(out.get(c, 13, 5)).isEqualTo(black);
                assertThat(out.get(c, 5, 2)).isEqualTo(black);
                assertThat(out.get(c, 5, 13)).isEqualTo(black);
                int v = Byte.toUnsignedInt(px.get(java.lang.foreign.ValueLayout.JAVA_BYTE, c));
                assertThat(out.get(c, 2, 3)).isEqualTo(Normalize.IMAGENET.apply(c, v));
            }
        }
    }
}
