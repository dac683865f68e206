package dev.stoker.vision.transform;

import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Gets the plain loops, which a new JVM's first images render with, compiled before those images
 * come: started when an image pipeline is built, it renders up to {@link #RENDERS} W3-like crops
 * (some flipped, into native memory as a batch's slots are) on a thread of its own while the
 * caller scans its folder or opens its shards, and stops at the first image a worker renders, so
 * that it never takes a core from the first batch. In a new JVM the first batch's images ran
 * interpreted, then in C1's profiling code while C2 compiled them: W3's first batch came 60-100 ms
 * sooner with the loops compiled first.
 */
final class PlainWarmup {
    /** About what C2 needs to compile the row loops (they were compiled within a new JVM's first 40 images). */
    static final int RENDERS = 48;
    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static volatile int rendered;

    private PlainWarmup() {}

    /** Starts the warm-up once per JVM (a daemon thread: it never keeps the JVM alive). */
    static void start() {
        if (STARTED.compareAndSet(false, true)) {
            Thread.ofPlatform().daemon().name("stoker-resampler-warmup").start(PlainWarmup::run);
        }
    }

    /** How many images the warm-up rendered (for tests). */
    static int rendered() {
        return rendered;
    }

    private static void run() {
        try (Arena arena = Arena.ofConfined()) {
            SourcePixels pixels = WarmupScene.pixels(500, 375, arena);
            SplittableRandom rnd = new SplittableRandom(1);
            // no lambdas: spinning their classes would be start-up work of its own
            WarmupScene[] scenes = new WarmupScene[4];
            Tensor slot = WarmupScene.slot(224, 224, arena);   // one for all: renders are one at a time
            for (int i = 0; i < scenes.length; i++) {
                int w = rnd.nextInt(120, 501);
                int h = rnd.nextInt(90, 376);
                CropBox box = new CropBox(rnd.nextInt(0, 376 - h), rnd.nextInt(0, 501 - w), h, w);
                scenes[i] = WarmupScene.of(pixels, box, i % 2 == 1, slot);
            }
            Scratch scratch = new Scratch();
            for (int i = 0; i < RENDERS && !Mac.imagesStarted(); i++) {
                scenes[i % scenes.length].plain(scratch);
                rendered = i + 1;
            }
        } catch (RuntimeException | LinkageError e) {
            // only a warm-up: the images render as they would have without it
        }
    }
}
