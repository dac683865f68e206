package dev.stoker.vision.transform;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Gets the resampler's vector code compiled on a thread of its own while the workers render with
 * the plain loops, and tells {@link Mac} to hand over once the vector code is the faster: after it
 * has won {@link #WINS} timed rounds in a row on the same image (one win can be the plain side's
 * thread preempted). It gives up waiting after {@link #MAX_NANOS} (a machine too busy to time
 * anything) and hands over anyway. A round is one W3-sized render each way.
 */
final class VectorWarmup {
    private static final int WINS = 3;
    private static final long MAX_NANOS = 10_000_000_000L;
    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private VectorWarmup() {}

    /** Starts the warm-up once per JVM (a daemon thread: it never keeps the JVM alive). */
    static void start() {
        if (STARTED.compareAndSet(false, true)) {
            Thread t = new Thread(VectorWarmup::run, "stoker-vector-warmup");
            t.setDaemon(true);
            t.start();
        }
    }

    private static void run() {
        try {
            int w = 500;
            int h = 375;
            byte[] rgb = new byte[w * h * 3];
            for (int i = 0; i < rgb.length; i++) {
                rgb[i] = (byte) (i * 37);
            }
            SourcePixels source = SourcePixels.whole(MemorySegment.ofArray(rgb), w, h);
            Geometry g = new Geometry(w, h);
            g.crop(new CropBox(20, 30, 300, 400));
            g.resize(224, 224);
            // the Vector API stores into heap memory only when it is a byte[]
            Tensor vectorSlot = new Tensor(MemorySegment.ofArray(new byte[3 * 224 * 224 * 4]), DType.F32,
                    Shape.of(3, 224, 224));
            Tensor plainSlot = new Tensor(MemorySegment.ofArray(new byte[3 * 224 * 224 * 4]), DType.F32,
                    Shape.of(3, 224, 224));
            Scratch scratch = new Scratch();
            long start = System.nanoTime();
            int wins = 0;
            while (wins < WINS && System.nanoTime() - start < MAX_NANOS) {
                long t0 = System.nanoTime();
                SlotWriter vectorWriter = new SlotWriter(vectorSlot, Normalize.IMAGENET, g, scratch);
                Taps t = Taps.of(source, g, scratch);
                if (Mac.wide()) {
                    VectorResampler.render(source, g, t, vectorWriter, scratch);
                } else {
                    ReferenceResampler.render(source, g, t, vectorWriter, scratch, true);
                }
                long t1 = System.nanoTime();
                SlotWriter plainWriter = new SlotWriter(plainSlot, Normalize.IMAGENET, g, scratch);
                ReferenceResampler.render(source, g, Taps.of(source, g, scratch), plainWriter, scratch, false);
                long t2 = System.nanoTime();
                wins = t1 - t0 < t2 - t1 ? wins + 1 : 0;
            }
        } catch (RuntimeException | LinkageError e) {
            // the vector code is checked by the tests; here it only warms up: hand over as before
        } finally {
            Mac.handOver();
        }
    }
}
