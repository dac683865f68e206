package dev.stoker.vision.transform;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One image {@link VectorWarmup} renders both ways, into an f32 slot of its own. Pixels and slot
 * are native memory, as a decoder's output and a batch pool's slots are: C2 compiles memory
 * accesses for the kinds of segment it has seen, and code compiled for heap slots boxed every
 * output vector (its store was not intrinsified) and was thrown away at a worker's first slot.
 */
final class WarmupScene {
    private final SourcePixels source;
    private final Geometry geometry;
    private final Tensor slot;

    private WarmupScene(SourcePixels source, Geometry geometry, Tensor slot) {
        this.source = source;
        this.geometry = geometry;
        this.slot = slot;
    }

    /** An image of {@code pixels}, cropped to {@code box}, flipped or not, resized to {@code height x width}. */
    static WarmupScene of(SourcePixels pixels, CropBox box, boolean flip, int height, int width, Arena arena) {
        return of(pixels, box, flip, slot(height, width, arena));
    }

    /** As {@link #of(SourcePixels, CropBox, boolean, int, int, Arena)}, into {@code slot} (shared by scenes of its size). */
    static WarmupScene of(SourcePixels pixels, CropBox box, boolean flip, Tensor slot) {
        Geometry g = new Geometry(pixels.width(), pixels.height());
        g.crop(box);
        if (flip) {
            g.flipHorizontal();
        }
        g.resize((int) slot.shape().dim(1), (int) slot.shape().dim(2));
        return new WarmupScene(pixels, g, slot);
    }

    /** An f32 {@code (3, height, width)} slot of native memory. */
    static Tensor slot(int height, int width, Arena arena) {
        return new Tensor(arena.allocate(3L * height * width * Float.BYTES, 64), DType.F32, Shape.of(3, height, width));
    }

    /** A {@code width x height} RGB image of native memory, in a pattern with edges in every direction. */
    static SourcePixels pixels(int width, int height, Arena arena) {
        byte[] rgb = new byte[3 * width * height];
        for (int i = 0; i < rgb.length; i++) {
            rgb[i] = (byte) (i * 37 + (i >> 9));
        }
        return SourcePixels.whole(arena.allocate(rgb.length).copyFrom(MemorySegment.ofArray(rgb)), width, height);
    }

    /** Renders with the vector code: {@link VectorResampler}, or the Vector API inner loop without it. */
    void vector(Scratch scratch) {
        SlotWriter writer = new SlotWriter(slot, Normalize.IMAGENET, geometry, scratch);
        Taps t = Taps.of(source, geometry, scratch);
        if (Mac.wide()) {
            VectorResampler.render(source, geometry, t, writer, scratch);
        } else {
            ReferenceResampler.render(source, geometry, t, writer, scratch, true);
        }
    }

    /** Renders with the plain loops, as a new JVM's workers do. */
    void plain(Scratch scratch) {
        SlotWriter writer = new SlotWriter(slot, Normalize.IMAGENET, geometry, scratch);
        ReferenceResampler.render(source, geometry, Taps.of(source, geometry, scratch), writer, scratch, false);
    }
}
