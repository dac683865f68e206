package dev.stoker.vision.decode;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Decodes a small JPEG ({@code warmup.jpg}, 64x48, 4:2:0, made by {@code scripts/make-warmup-jpeg.py})
 * once, on the thread that loaded libjpeg-turbo: whole, at half size and a region of it, the calls
 * a training pipeline makes. A new JVM's first decode took 20-50 ms against 2 ms for the next (a
 * session's buffers, the first calls through the FFM linker's handles); the first batch's workers
 * paid that, each for its own session and together for the rest.
 */
final class DecodeWarmup {
    private static volatile int decoded;

    private DecodeWarmup() {}

    /** How many decodes the warm-up made (for tests): 3, or 0 where libjpeg-turbo is not used. */
    static int decoded() {
        return decoded;
    }

    /** Runs once libjpeg-turbo is loaded; does nothing without it (ImageIO's start-up would cost more than it saves). */
    static void run() {
        if (TurboJpeg.instance().isEmpty()) {
            return;
        }
        byte[] jpeg;
        try (InputStream in = DecodeWarmup.class.getResourceAsStream("warmup.jpg")) {
            if (in == null) {
                return;
            }
            jpeg = in.readNBytes(64 * 1024);
        } catch (IOException e) {
            return;
        }
        try (Arena arena = Arena.ofConfined();
             ImageDecoder decoder = ImageDecoder.create();
             DecodeSession session = decoder.session()) {
            // native bytes, as the files the workers read into their sessions are
            MemorySegment bytes = arena.allocate(jpeg.length).copyFrom(MemorySegment.ofArray(jpeg));
            session.open(bytes, "warm-up");
            session.decode(ScalingFactor.ONE);
            decoded++;
            session.open(bytes, "warm-up");
            session.decode(new ScalingFactor(1, 2));
            decoded++;
            session.open(bytes, "warm-up");
            session.decodeRegion(new ScalingFactor(1, 2), 16, 16, 32, 24, true);
            decoded++;
        } catch (RuntimeException | LinkageError e) {
            // only a warm-up: a first image meets the same error where it is reported
        }
    }
}
