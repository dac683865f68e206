package dev.stoker.vision.decode;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.Fixtures;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.transform.CenterCrop;
import dev.stoker.vision.transform.RandomHorizontalFlip;
import dev.stoker.vision.transform.RandomResizedCrop;
import dev.stoker.vision.transform.Resize;
import dev.stoker.vision.transform.SampleRandom;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JPEG corruption fuzz cases, run in a JVM of their own by {@link JpegCorruptionFuzzTest} so
 * that a crash in native code (libjpeg-turbo, or the JDK's own libjpeg under ImageIO) fails the
 * case it happened in instead of killing the test run. Each seed picks a fixture, damages it
 * ({@link JpegCorruptor}) and puts the result through every leg of one decoder (libjpeg-turbo
 * with ImageIO as its fallback, or ImageIO alone): a full decode, a crop decoded on its own
 * ({@link DecodeSession#decodeRegion}, forced), and
 * {@code ImagePipeline.train(224)}'s and {@code eval(224)}'s transforms into a slot; two cases
 * in three with damaged data refused (the default), the third with it allowed ({@link #lenient}).
 *
 * <p>The law, per leg: the image decodes to a size within the pixel limit, or an
 * {@link ImageDecodeException} whose message starts with the source is thrown. Anything else is
 * a finding, as is a leg that allocates more heap than its pixel limit allows, or off-heap
 * buffers that grow past it. Memory is measured, not guessed: the heap the case's thread
 * allocates, and the off-heap buffers the decoder's session holds.
 *
 * <p>Prints, per case, {@code start <seed> <fixture> <damage>} before and {@code done <seed>
 * <outcome per leg> us=<microseconds>} after, or {@code BAD <seed> <fixture> <leg>: <what>
 * [<damage>]}; last a {@code summary} line. Arguments: the number of cases, the first seed, and the decoder
 * ({@code turbo} or {@code imageio}).
 */
public final class JpegFuzzRunner {
    /** The fixtures damaged: every JPEG the decoder tests use, and (unaimed damage only) the PNGs. */
    static final List<String> FIXTURES = List.of(
            "decode/rgb420_q90.jpg", "decode/rgb444_q95.jpg", "decode/progressive.jpg", "decode/grayscale.jpg",
            "decode/cmyk.jpg", "decode/odd_37x23.jpg", "decode/truncated.jpg", "torchvision/photo_80x60.jpg",
            "decode/png_named.jpg", "decode/gray_png_named.jpg", "decode/rgba_png_named.jpg");
    /**
     * The pixel limit of the fuzz decoders: far above the fixtures (at most 80x60), far below the
     * sizes a damaged SOF claims (up to 65535 x 65535), and small enough that a header within it
     * decodes in milliseconds.
     */
    static final long MAX_PIXELS = 1L << 16;
    /**
     * Heap one leg may allocate, garbage included: an ImageIO decode holds its raster (up to 4
     * bytes a pixel), and for a progressive JPEG it also copies each row out at every output
     * pass (some 35 bytes a pixel in all, measured); the rest is bookkeeping.
     */
    static final long MAX_LEG_HEAP = 64 * MAX_PIXELS + (16L << 20);
    /**
     * Off-heap memory a decoder's session may hold (the legs run one at a time on one thread, so
     * each decoder has one): a pixel buffer of at most twice (it doubles) 4 bytes (CMYK) a pixel,
     * and a copy of the input, at most twice the largest damaged file (a few megabytes).
     */
    static final long MAX_NATIVE = 2 * 4 * MAX_PIXELS + (16L << 20);

    private final List<Leg> legs = new ArrayList<>();
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final Arena arena = Arena.ofConfined();
    private final Tensor slot = Tensor.allocate(arena, DType.F32, Shape.of(3, 224, 224));
    private final LegJudge judge = new LegJudge(MAX_LEG_HEAP, MAX_NATIVE);

    /** One way of consuming the damaged bytes, throwing what the API under test throws; for strict or lenient cases. */
    private record Leg(String name, boolean lenient, ImageDecoder decoder, Body body) {
    }

    private interface Body {
        void run(byte[] bytes, String source, long seed);
    }

    /** The legs of one decoder: {@code turbo} (libjpeg-turbo, ImageIO as its fallback) or {@code imageio}. */
    JpegFuzzRunner(String decoder) {
        boolean turbo = switch (decoder) {
            case "turbo" -> true;
            case "imageio" -> false;
            default -> throw new IllegalArgumentException("decoder turbo or imageio, not " + decoder);
        };
        if (turbo && !ImageDecoder.turboJpegAvailable()) {
            throw new IllegalStateException("libturbojpeg is not installed");
        }
        addLegs(decoder, turbo, false);
        addLegs(decoder, turbo, true);
    }

    private void addLegs(String decoderName, boolean turbo, boolean lenient) {
        ImageDecoder decoder = ImageDecoder.create(options(turbo).withAllowTruncated(lenient));
        resources.add(decoder);
        String name = decoderName + (lenient ? "-lenient" : "");
        legs.add(new Leg("decode-" + name, lenient, decoder, (bytes, source, seed) -> {
            try (DecodeSession session = decoder.session()) {
                DecodedImage image = session.decode(bytes, source);
                if (image.width() < 1 || image.height() < 1 || (long) image.width() * image.height() > MAX_PIXELS) {
                    throw new AssertionError("decoded to a size of " + image.width() + "x" + image.height());
                }
            }
        }));
        // Only the crop decoded (libjpeg-turbo's lossless crop), forced where it would not pay.
        legs.add(new Leg("crop-" + name, lenient, decoder, (bytes, source, seed) -> {
            try (DecodeSession session = decoder.session()) {
                ImageHeader h = session.open(bytes, source);
                java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
                int left = rnd.nextInt(h.width());
                int top = rnd.nextInt(h.height());
                ScalingFactor scale = rnd.nextBoolean() ? ScalingFactor.ONE : new ScalingFactor(1, 2);
                DecodedRegion r = session.decodeRegion(scale, left, top, 1 + rnd.nextInt(h.width() - left),
                        1 + rnd.nextInt(h.height() - top), true);
                if (r.image().width() < 1 || r.image().height() < 1 || r.left() + r.image().width() > r.fullWidth()
                        || r.top() + r.image().height() > r.fullHeight()) {
                    throw new AssertionError("decoded a region out of its image: " + r);
                }
            }
        }));
        ImagePipeline train = train(decoder);
        ImagePipeline eval = eval(decoder);
        resources.addFirst(train);
        resources.addFirst(eval);
        legs.add(new Leg("train-" + name, lenient, decoder, (bytes, source, seed) ->
                train.apply(bytes, source, slot, SampleRandom.of(seed, 0, 0))));
        legs.add(new Leg("eval-" + name, lenient, decoder, (bytes, source, seed) -> eval.apply(bytes, source, slot, null)));
    }

    /** The fuzz decoders' options: {@link #MAX_PIXELS}, damaged data refused (lenient cases allow it). */
    static DecodeOptions options(boolean turbo) {
        return DecodeOptions.defaults().withMaxPixels(MAX_PIXELS).withUseTurboJpeg(turbo);
    }

    /** {@code ImagePipeline.train(224)}'s transforms, with the fuzz decoder (its pixel limit). */
    static ImagePipeline train(ImageDecoder decoder) {
        return ImagePipeline.builder().add(new RandomResizedCrop(224)).add(new RandomHorizontalFlip())
                .decoder(decoder).build();
    }

    /** {@code ImagePipeline.eval(224)}'s transforms, with the fuzz decoder. */
    static ImagePipeline eval(ImageDecoder decoder) {
        return ImagePipeline.builder().add(Resize.shorterSide(256)).add(new CenterCrop(224)).decoder(decoder).build();
    }

    /**
     * Whether case {@code seed} runs the lenient legs ({@link DecodeOptions#allowTruncated()}:
     * damaged data decoded as far as it goes, so more garbage reaches the transforms) rather than
     * the strict ones: every third case.
     */
    static boolean lenient(long seed) {
        return Math.floorMod(seed, 3) == 2;
    }

    /** The fixture a seed damages. */
    static String fixture(long seed) {
        return FIXTURES.get((int) Math.floorMod(seed, FIXTURES.size()));
    }

    /** The damage of case {@code seed}: replays it exactly. */
    static JpegCorruptor.Damage damage(long seed) {
        return JpegCorruptor.of(Fixtures.bytes(fixture(seed))).damage(seed);
    }

    /**
     * Runs the pipeline legs on an undamaged fixture until the JIT has compiled the resampler:
     * its Vector API code allocates tens of megabytes over the first images while interpreted,
     * garbage the heap bound is not about (it bounds what damage makes a leg allocate).
     */
    void warmUp() {
        byte[] photo = Fixtures.bytes("torchvision/photo_80x60.jpg");
        for (Leg leg : legs) {
            if (leg.name().startsWith("train-") || leg.name().startsWith("eval-")) {
                for (int i = 0; i < WARM_UP_RENDERS; i++) {
                    leg.body().run(photo, "warm-up", i);
                }
            }
        }
    }

    /** Renders per pipeline leg before the cases: the resampler runs compiled after some 30 images. */
    private static final int WARM_UP_RENDERS = 30;

    /** Runs case {@code seed}; returns the outcome per leg, or the findings (lines starting {@code BAD}). */
    List<String> runCase(long seed) {
        String fixture = fixture(seed);
        JpegCorruptor.Damage damage = damage(seed);
        String source = fixture.substring(fixture.indexOf('/') + 1) + "@seed=" + seed;
        List<String> outcomes = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        for (Leg leg : legs) {
            if (leg.lenient() != lenient(seed)) {
                continue;
            }
            String outcome = judge.judge(leg.decoder(), source, () -> {
                leg.body().run(damage.bytes(), source, seed);
                return "ok";
            });
            LegJudge.record(outcome, seed, fixture, leg.name(), damage.description(), outcomes, bad);
        }
        return bad.isEmpty() ? outcomes : bad;
    }

    void close() throws Exception {
        for (AutoCloseable r : resources) {
            r.close();
        }
        arena.close();
    }

    public static void main(String[] args) throws Exception {
        int cases = Integer.parseInt(args[0]);
        long first = Long.parseLong(args[1]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        JpegFuzzRunner runner = new JpegFuzzRunner(args[2]);
        runner.warmUp();
        int bad = 0;
        Map<String, int[]> counts = new LinkedHashMap<>(); // leg: ok, refused
        runner.legs.forEach(l -> counts.put(l.name(), new int[2]));
        for (long seed = first; seed < first + cases; seed++) {
            out.println("start " + seed + " " + fixture(seed) + " " + damage(seed).description());
            long t0 = System.nanoTime();
            List<String> result = runner.runCase(seed);
            long micros = (System.nanoTime() - t0) / 1000;
            if (result.getFirst().startsWith("BAD")) {
                bad++;
                result.forEach(out::println);
                continue;
            }
            for (String r : result) {
                int[] c = counts.get(r.substring(0, r.indexOf('=')));
                c[r.endsWith("=ok") ? 0 : 1]++;
            }
            out.println("done " + seed + " " + String.join(" ", result) + " us=" + micros);
        }
        StringBuilder summary = new StringBuilder("summary cases=" + cases + " bad=" + bad);
        counts.forEach((leg, c) -> summary.append(' ').append(leg).append("=ok:").append(c[0])
                .append("/refused:").append(c[1]));
        out.println(summary);
        runner.close();
    }
}
