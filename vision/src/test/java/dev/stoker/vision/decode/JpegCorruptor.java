package dev.stoker.vision.decode;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded damage to a JPEG, aimed at what a decoder trusts: the frame size in SOF, the Huffman
 * (DHT) and quantization (DQT) tables, the frame and scan component fields, marker lengths, the
 * order of the segments, the kind of frame, the number of scans; and, less aimed, flipped bits,
 * overwritten bytes, truncation and junk appended. Files that are not JPEGs (the PNG fixtures) get only the unaimed kinds. A case
 * is fully given by its seed: {@code JpegCorruptor.of(bytes).damage(seed)} replays it.
 */
final class JpegCorruptor {
    /** Damaged bytes and what was done to them, for the failure message. */
    record Damage(byte[] bytes, String description) {
    }

    /** A marker segment before the entropy-coded data: marker at {@code offset}, {@code length} bytes in all. */
    record Segment(int marker, int offset, int length) {
        int body() {
            return offset + 4;
        }

        int end() {
            return offset + length;
        }
    }

    private final byte[] good;
    private final List<Segment> segments;

    private JpegCorruptor(byte[] good, List<Segment> segments) {
        this.good = good;
        this.segments = segments;
    }

    static JpegCorruptor of(byte[] good) {
        return new JpegCorruptor(good, segments(good));
    }

    /** Whether the file parsed as a JPEG, so the aimed kinds of damage apply. */
    boolean isJpeg() {
        return !segments.isEmpty();
    }

    Damage damage(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        // One kind of damage, sometimes two on top of each other.
        Damage d = damageOnce(good, rnd);
        if (rnd.nextInt(8) == 0) {
            Damage more = of(d.bytes()).damageOnce(d.bytes(), rnd);
            d = new Damage(more.bytes(), d.description() + " + " + more.description());
        }
        return d;
    }

    private Damage damageOnce(byte[] in, SplittableRandom rnd) {
        if (isJpeg() && rnd.nextInt(200) == 0) {
            return repeatLastScan(rnd); // rare: each such case decodes hundreds of scans
        }
        int kinds = isJpeg() ? 12 : 4;
        int kind = rnd.nextInt(kinds);
        return switch (kind) {
            case 0 -> flipBits(in, rnd);
            case 1 -> overwriteBytes(in, rnd);
            case 2 -> truncate(in, rnd);
            case 3 -> appendJunk(in, rnd);
            case 4, 5 -> frameSize(rnd);
            case 6 -> duplicateSegment(rnd);
            case 7 -> removeSegment(rnd);
            case 8 -> segmentLength(rnd);
            case 9 -> scramble(rnd, 0xC4, "DHT");
            case 10 -> scramble(rnd, 0xDB, "DQT");
            default -> rnd.nextBoolean() ? frameFields(rnd) : scramble(rnd, 0xDA, "SOS");
        };
    }

    private static Damage flipBits(byte[] in, SplittableRandom rnd) {
        byte[] b = in.clone();
        int n = 1 + rnd.nextInt(8);
        StringBuilder what = new StringBuilder("flipped bits at");
        for (int i = 0; i < n && b.length > 0; i++) {
            int at = rnd.nextInt(b.length);
            int bit = rnd.nextInt(8);
            b[at] ^= (byte) (1 << bit);
            what.append(' ').append(at).append('.').append(bit);
        }
        return new Damage(b, what.toString());
    }

    private static Damage overwriteBytes(byte[] in, SplittableRandom rnd) {
        byte[] b = in.clone();
        int n = 1 + rnd.nextInt(16);
        StringBuilder what = new StringBuilder("overwrote bytes");
        for (int i = 0; i < n && b.length > 0; i++) {
            int at = rnd.nextInt(b.length);
            b[at] = (byte) rnd.nextInt(256);
            what.append(' ').append(at).append('=').append(b[at] & 0xFF);
        }
        return new Damage(b, what.toString());
    }

    private static Damage truncate(byte[] in, SplittableRandom rnd) {
        int at = rnd.nextInt(Math.max(1, in.length));
        return new Damage(Arrays.copyOf(in, at), "truncated to " + at + " of " + in.length + " bytes");
    }

    private static Damage appendJunk(byte[] in, SplittableRandom rnd) {
        int n = 1 + rnd.nextInt(rnd.nextBoolean() ? 16 : 4096);
        byte[] b = Arrays.copyOf(in, in.length + n);
        boolean markers = rnd.nextBoolean(); // junk full of 0xFF: looks like markers to a parser
        for (int i = in.length; i < b.length; i++) {
            b[i] = markers && rnd.nextInt(3) == 0 ? (byte) 0xFF : (byte) rnd.nextInt(256);
        }
        return new Damage(b, "appended " + n + " bytes of junk" + (markers ? " with markers" : ""));
    }

    /** The SOF's width and height: zero, tiny, huge, or anything a 16-bit field holds. */
    private Damage frameSize(SplittableRandom rnd) {
        Segment sof = first(this::isFrame);
        if (sof == null) {
            return overwriteBytes(good, rnd);
        }
        byte[] b = good.clone();
        int width = sizeValue(rnd);
        int height = sizeValue(rnd);
        if (rnd.nextInt(4) == 0) {
            width = readShort(good, sof.body() + 3); // keep one side: a thin image or a tall one
        } else if (rnd.nextInt(4) == 0) {
            height = readShort(good, sof.body() + 1);
        }
        writeShort(b, sof.body() + 1, height);
        writeShort(b, sof.body() + 3, width);
        return new Damage(b, "SOF size set to " + width + "x" + height);
    }

    private static int sizeValue(SplittableRandom rnd) {
        return switch (rnd.nextInt(5)) {
            case 0 -> rnd.nextInt(3);                 // 0 (DNL in JPEG), 1, 2
            case 1 -> 60000 + rnd.nextInt(5536);      // a decompression bomb
            case 2 -> 1 + rnd.nextInt(256);           // small, odd sizes
            case 3 -> 1 + rnd.nextInt(1024);          // within reach of the pixel limit
            default -> rnd.nextInt(65536);
        };
    }

    /** Frame header fields after the size: precision, component count, ids, sampling factors, table numbers. */
    private Damage frameFields(SplittableRandom rnd) {
        Segment sof = first(this::isFrame);
        if (sof == null) {
            return overwriteBytes(good, rnd);
        }
        byte[] b = good.clone();
        int[] fields = {0, 5};  // precision, component count; then 3 bytes per component
        int n = 1 + rnd.nextInt(3);
        StringBuilder what = new StringBuilder("SOF fields");
        for (int i = 0; i < n; i++) {
            int at = rnd.nextBoolean() ? sof.body() + fields[rnd.nextInt(2)]
                    : sof.body() + 6 + rnd.nextInt(Math.max(1, sof.length() - 10));
            if (at >= sof.end()) {
                continue;
            }
            b[at] = (byte) (rnd.nextBoolean() ? rnd.nextInt(256) : rnd.nextInt(5));
            what.append(' ').append(at).append('=').append(b[at] & 0xFF);
        }
        if (rnd.nextInt(3) == 0) { // another kind of frame: extended, lossless, arithmetic-coded, 12-bit
            int marker = new int[] {0xC1, 0xC2, 0xC3, 0xC9, 0xCA, 0xCB, 0xC5}[rnd.nextInt(7)];
            b[sof.offset() + 1] = (byte) marker;
            what.append(" marker=").append(Integer.toHexString(marker));
            if (rnd.nextBoolean()) {
                b[sof.body()] = (byte) (rnd.nextBoolean() ? 12 : 16);
                what.append(" precision=").append(b[sof.body()]);
            }
        }
        return new Damage(b, what.toString());
    }

    /** The last scan (header and data) repeated up to 700 times: around libjpeg-turbo's limit of 500 scans. */
    private Damage repeatLastScan(SplittableRandom rnd) {
        Segment sos = segments.getLast();
        int eoi = good.length;
        for (int i = good.length - 2; i > sos.end(); i--) {
            if ((good[i] & 0xFF) == 0xFF && (good[i + 1] & 0xFF) == 0xD9) {
                eoi = i;
                break;
            }
        }
        int lastScan = sos.offset();
        for (int i = sos.end(); i + 1 < eoi; i++) {
            if ((good[i] & 0xFF) == 0xFF && (good[i + 1] & 0xFF) == 0xDA) {
                lastScan = i;
            }
        }
        int copies = 1 + rnd.nextInt(700);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(good, 0, eoi);
        for (int c = 0; c < copies; c++) {
            out.write(good, lastScan, eoi - lastScan);
        }
        out.write(good, eoi, good.length - eoi);
        return new Damage(out.toByteArray(), "last scan at " + lastScan + " repeated " + copies + " times");
    }

    private Damage duplicateSegment(SplittableRandom rnd) {
        Segment s = segments.get(rnd.nextInt(segments.size()));
        Segment where = segments.get(rnd.nextInt(segments.size()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(good, 0, where.offset());
        out.write(good, s.offset(), s.length());
        out.write(good, where.offset(), good.length - where.offset());
        return new Damage(out.toByteArray(), "copied " + name(s.marker()) + " at " + s.offset()
                + " to before " + name(where.marker()) + " at " + where.offset());
    }

    private Damage removeSegment(SplittableRandom rnd) {
        Segment s = segments.get(rnd.nextInt(segments.size()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(good, 0, s.offset());
        out.write(good, s.end(), good.length - s.end());
        return new Damage(out.toByteArray(), "removed " + name(s.marker()) + " at " + s.offset());
    }

    private Damage segmentLength(SplittableRandom rnd) {
        Segment s = segments.get(rnd.nextInt(segments.size()));
        byte[] b = good.clone();
        int length = switch (rnd.nextInt(4)) {
            case 0 -> rnd.nextInt(4);                           // shorter than the length field itself
            case 1 -> Math.max(0, s.length() - 2 + rnd.nextInt(9) - 4);  // off by a few
            case 2 -> 0xFFFF - rnd.nextInt(16);                 // past the end of the file
            default -> rnd.nextInt(65536);
        };
        writeShort(b, s.offset() + 2, length);
        return new Damage(b, name(s.marker()) + " at " + s.offset() + " length set to " + length
                + " (was " + (s.length() - 2) + ")");
    }

    /** Random bytes in the body of a segment of this kind: counts, symbols, table ids and precisions, values. */
    private Damage scramble(SplittableRandom rnd, int marker, String kind) {
        List<Segment> of = segments.stream().filter(s -> s.marker() == marker).toList();
        if (of.isEmpty()) {
            return overwriteBytes(good, rnd);
        }
        Segment s = of.get(rnd.nextInt(of.size()));
        byte[] b = good.clone();
        int bodyLength = s.length() - 4;
        if (bodyLength <= 0) {
            return overwriteBytes(good, rnd);
        }
        int n = 1 + rnd.nextInt(Math.min(32, bodyLength));
        boolean head = rnd.nextBoolean(); // the first bytes: table class and id, precision, counts
        StringBuilder what = new StringBuilder(kind + " at " + s.offset() + " scrambled:");
        for (int i = 0; i < n; i++) {
            int at = s.body() + rnd.nextInt(head ? Math.min(bodyLength, 18) : bodyLength);
            b[at] = switch (rnd.nextInt(3)) {
                case 0 -> 0;
                case 1 -> (byte) 0xFF;
                default -> (byte) rnd.nextInt(256);
            };
            what.append(' ').append(at).append('=').append(b[at] & 0xFF);
        }
        return new Damage(b, what.toString());
    }

    private boolean isFrame(Segment s) {
        int m = s.marker();
        return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
    }

    private Segment first(java.util.function.Predicate<Segment> p) {
        return segments.stream().filter(p).findFirst().orElse(null);
    }

    /** The marker segments from after SOI up to and including SOS; empty when the file is not a JPEG. */
    static List<Segment> segments(byte[] b) {
        List<Segment> out = new ArrayList<>();
        if (b.length < 4 || (b[0] & 0xFF) != 0xFF || (b[1] & 0xFF) != 0xD8) {
            return out;
        }
        int i = 2;
        while (i + 4 <= b.length && (b[i] & 0xFF) == 0xFF) {
            int marker = b[i + 1] & 0xFF;
            int length = 2 + readShort(b, i + 2);
            if (i + length > b.length) {
                break;
            }
            out.add(new Segment(marker, i, length));
            if (marker == 0xDA) {
                break;
            }
            i += length;
        }
        return List.copyOf(out);
    }

    private static String name(int marker) {
        return switch (marker) {
            case 0xC4 -> "DHT";
            case 0xDB -> "DQT";
            case 0xDA -> "SOS";
            case 0xDD -> "DRI";
            case 0xC0 -> "SOF0";
            case 0xC1 -> "SOF1";
            case 0xC2 -> "SOF2";
            default -> marker >= 0xE0 && marker <= 0xEF ? "APP" + (marker - 0xE0) : String.format("marker %02X", marker);
        };
    }

    private static int readShort(byte[] b, int at) {
        return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
    }

    private static void writeShort(byte[] b, int at, int value) {
        b[at] = (byte) (value >> 8);
        b[at + 1] = (byte) value;
    }
}
