package dev.stoker.vision.decode;

import dev.stoker.vision.Fixtures;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The WebP and PNM corruption fuzz cases, run in a JVM of their own by
 * {@link FormatCorruptionFuzzTest} so that a crash in libwebp fails the case it happened in.
 * Each seed picks a fixture, damages it ({@link #damage}) and decodes the result with each
 * decoder: libwebp (when installed) or TwelveMonkeys for WebP, {@link PnmDecoder} for PNM; damaged
 * data refused, and (every third case) allowed.
 *
 * <p>The law, per leg: the image decodes to a size within the pixel limit, or an
 * {@link ImageDecodeException} whose message starts with the source is thrown; never another
 * exception, more heap than the pixel limit allows, or off-heap buffers past it. Prints
 * {@code start}, {@code done} or {@code BAD} lines per case and a {@code summary}, as
 * {@link JpegFuzzRunner} does. Arguments: the number of cases, the first seed.
 */
public final class FormatFuzzRunner {
    static final List<String> FIXTURES = List.of(
            "formats/lossy.webp", "formats/lossy_alpha.webp", "formats/lossless.webp", "formats/lossless_alpha.webp",
            "formats/lossy_odd_37x23.webp", "formats/p6.ppm", "formats/p3.ppm", "formats/p5_16bit.pgm",
            "formats/p5_maxval_1000.pgm", "formats/p2.pgm", "formats/p4_odd_37x23.pbm", "formats/p1.pbm",
            "formats/p6_maxval_200.ppm", "formats/animated_lossy.webp", "formats/animated_lossless.webp");
    /** As {@link JpegFuzzRunner#MAX_PIXELS}: far above the fixtures, far below what a damaged header claims. */
    static final long MAX_PIXELS = 1L << 16;
    /** Heap a leg may allocate: TwelveMonkeys' raster and its copies (a few dozen bytes a pixel) and bookkeeping. */
    static final long MAX_LEG_HEAP = 64 * MAX_PIXELS + (16L << 20);
    /** Off-heap a session may hold: a pixel buffer of twice 3 bytes a pixel, and a copy of the input. */
    static final long MAX_NATIVE = 2 * 3 * MAX_PIXELS + (16L << 20);

    private record Leg(String name, boolean lenient, ImageDecoder decoder) {
    }

    private final List<Leg> legs = new ArrayList<>();
    private final LegJudge judge = new LegJudge(MAX_LEG_HEAP, MAX_NATIVE);

    FormatFuzzRunner() {
        for (boolean lenient : new boolean[] {false, true}) {
            String suffix = lenient ? "-lenient" : "";
            if (ImageDecoder.libWebpAvailable()) {
                legs.add(new Leg("libwebp" + suffix, lenient, decoder(true, lenient)));
            }
            legs.add(new Leg("java" + suffix, lenient, decoder(false, lenient)));
        }
    }

    private static ImageDecoder decoder(boolean libwebp, boolean lenient) {
        return ImageDecoder.create(DecodeOptions.defaults().withMaxPixels(MAX_PIXELS).withUseLibWebp(libwebp)
                .withAllowTruncated(lenient));
    }

    static String fixture(long seed) {
        return FIXTURES.get((int) Math.floorMod(seed, FIXTURES.size()));
    }

    static boolean lenient(long seed) {
        return Math.floorMod(seed, 3) == 2;
    }

    /** The damaged bytes of case {@code seed} and what was done, replayable from the seed alone. */
    record Damage(byte[] bytes, String description) {
    }

    static Damage damage(long seed) {
        byte[] b = Fixtures.bytes(fixture(seed));
        SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + 17);
        StringBuilder what = new StringBuilder();
        int n = 1 + rnd.nextInt(3);
        for (int i = 0; i < n && b.length > 0; i++) {
            int at = headerBiased(rnd, b.length);
            switch (rnd.nextInt(8)) {
                case 0 -> {  // flip one bit
                    b[at] ^= (byte) (1 << rnd.nextInt(8));
                    what.append("flip@").append(at).append(' ');
                }
                case 1 -> {  // overwrite a run of bytes
                    int len = 1 + rnd.nextInt(Math.min(16, b.length - at));
                    for (int k = 0; k < len; k++) {
                        b[at + k] = (byte) rnd.nextInt(256);
                    }
                    what.append("junk@").append(at).append('+').append(len).append(' ');
                }
                case 2 -> {  // cut short
                    b = Arrays.copyOf(b, at);
                    what.append("cut@").append(at).append(' ');
                }
                case 3 -> {  // a header number, in text (PNM) or in binary (WebP's RIFF and chunk sizes, widths)
                    b = bigNumber(b, rnd, what);
                }
                case 4 -> {  // remove a run
                    int len = 1 + rnd.nextInt(Math.min(64, b.length - at));
                    byte[] c = new byte[b.length - len];
                    System.arraycopy(b, 0, c, 0, at);
                    System.arraycopy(b, at + len, c, at, b.length - at - len);
                    b = c;
                    what.append("remove@").append(at).append('+').append(len).append(' ');
                }
                case 5 -> {  // duplicate a run
                    int len = 1 + rnd.nextInt(Math.min(64, b.length - at));
                    byte[] c = new byte[b.length + len];
                    System.arraycopy(b, 0, c, 0, at + len);
                    System.arraycopy(b, at, c, at + len, b.length - at);
                    b = c;
                    what.append("dup@").append(at).append('+').append(len).append(' ');
                }
                case 6 -> {  // junk appended
                    int len = 1 + rnd.nextInt(256);
                    byte[] c = Arrays.copyOf(b, b.length + len);
                    for (int k = b.length; k < c.length; k++) {
                        c[k] = (byte) rnd.nextInt(256);
                    }
                    b = c;
                    what.append("append+").append(len).append(' ');
                }
                default -> {  // a byte set to an edge value
                    byte[] edges = {0, (byte) 0xFF, (byte) 0x80, 0x7F, ' ', '#', '\n', '9'};
                    b[at] = edges[rnd.nextInt(edges.length)];
                    what.append("edge@").append(at).append(' ');
                }
            }
        }
        return new Damage(b, what.toString().trim());
    }

    /** Half the damage lands in the first 40 bytes, where the headers are. */
    private static int headerBiased(SplittableRandom rnd, int length) {
        return rnd.nextBoolean() ? rnd.nextInt(Math.min(40, length)) : rnd.nextInt(length);
    }

    private static byte[] bigNumber(byte[] b, SplittableRandom rnd, StringBuilder what) {
        if (b[0] == 'P') {  // a PNM header token replaced by a random number, up to ten digits
            String text = new String(b, 0, Math.min(b.length, 40), StandardCharsets.ISO_8859_1);
            String[] tokens = text.split("[ \t\n\r]+");
            int index = 1 + rnd.nextInt(Math.max(1, Math.min(3, tokens.length - 1)));
            if (index >= tokens.length) {
                return b;
            }
            String value = Long.toString(rnd.nextLong(1, rnd.nextBoolean() ? 100_000 : 9_999_999_999L));
            int at = text.indexOf(tokens[index], tokens[0].length());
            if (at < 0) {
                return b;
            }
            byte[] head = Arrays.copyOf(b, at);
            byte[] tail = Arrays.copyOfRange(b, at + tokens[index].length(), b.length);
            byte[] c = new byte[head.length + value.length() + tail.length];
            System.arraycopy(head, 0, c, 0, head.length);
            System.arraycopy(value.getBytes(StandardCharsets.US_ASCII), 0, c, head.length, value.length());
            System.arraycopy(tail, 0, c, head.length + value.length(), tail.length);
            what.append("token").append(index).append('=').append(value).append(' ');
            return c;
        }
        // WebP: the RIFF size (4), the chunk size (16), the VP8 frame's or VP8L's width and height (26..30, 21..25)
        int[] places = {4, 16, 21, 23, 26, 28};
        int at = places[rnd.nextInt(places.length)];
        if (at + 2 <= b.length) {
            int v = rnd.nextInt(65536);
            b[at] = (byte) v;
            b[at + 1] = (byte) (v >> 8);
            what.append("field@").append(at).append('=').append(v).append(' ');
        }
        return b;
    }

    List<String> runCase(long seed) {
        Damage damage = damage(seed);
        String fixture = fixture(seed);
        String source = fixture.substring(fixture.indexOf('/') + 1) + "@seed=" + seed;
        List<String> outcomes = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        for (Leg leg : legs) {
            if (leg.lenient() != lenient(seed)) {
                continue;
            }
            String outcome = judge.judge(leg.decoder(), source, () -> {
                try (DecodeSession s = leg.decoder().session()) {
                    DecodedImage image = s.decode(damage.bytes(), source);
                    return (long) image.width() * image.height() > MAX_PIXELS
                            ? "BAD decoded to " + image.width() + "x" + image.height() : "ok";
                }
            });
            LegJudge.record(outcome, seed, fixture, leg.name(), damage.description(), outcomes, bad);
        }
        return bad.isEmpty() ? outcomes : bad;
    }

    public static void main(String[] args) {
        int cases = Integer.parseInt(args[0]);
        long first = Long.parseLong(args[1]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        FormatFuzzRunner runner = new FormatFuzzRunner();
        int bad = 0;
        Map<String, int[]> counts = new LinkedHashMap<>();
        runner.legs.forEach(l -> counts.put(l.name(), new int[2]));
        for (long seed = first; seed < first + cases; seed++) {
            out.println("start " + seed + " " + fixture(seed) + " " + damage(seed).description());
            List<String> result = runner.runCase(seed);
            if (result.getFirst().startsWith("BAD")) {
                bad++;
                result.forEach(out::println);
                continue;
            }
            for (String r : result) {
                counts.get(r.substring(0, r.indexOf('=')))[r.endsWith("=ok") ? 0 : 1]++;
            }
            out.println("done " + seed + " " + String.join(" ", result));
        }
        StringBuilder summary = new StringBuilder("summary cases=" + cases + " bad=" + bad);
        counts.forEach((leg, c) -> summary.append(' ').append(leg).append("=ok:").append(c[0])
                .append("/refused:").append(c[1]));
        out.println(summary);
        runner.legs.forEach(l -> l.decoder().close());
    }
}
