package dev.stoker.formats.mds;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Seeded damage to a copy of an MDS set: one of its files (index.json or a shard, compressed or raw)
 * gets bytes flipped, a u32 overwritten with a boundary value (where an MDS file keeps counts,
 * offsets and sizes), a truncation, appended garbage, or in index.json a number or string replaced.
 * The same seed always does the same damage; {@link #damage} says what it did.
 */
final class MdsCorruptor {
    private static final long[] INTERESTING = {0, 1, 2, 3, 4, 7, 8, 0x7F, 0xFF, 0x100, 0xFFFF, 0x10000,
            0x7FFF_FFFFL, 0x8000_0000L, 0xFFFF_FFFFL, 0xFFFF_FFFEL};
    private static final Pattern NUMBER = Pattern.compile("-?\\d+");
    private static final Pattern STRING = Pattern.compile("\"[^\"]*\"");
    private static final String[] STRINGS = {"\"\"", "\"..\"", "\"/etc/passwd\"", "\"json\"", "\"ndarray\"",
            "\"ndarray:uint64\"", "\"ndarray:int8:99999999999,99999999999\"", "\"list[pil]\"", "\"pil\"",
            "\"str_int\"", "\"zstd\"", "\"gz\"", "\"br\"", "\"shard.00000.mds\"", "null", "[]", "{}", "1e400",
            "-1", "18446744073709551616"};

    private MdsCorruptor() {
    }

    /** Damages one file of the set in {@code dir} with {@code seed}; returns a description. */
    static String damage(Path dir, long seed) throws IOException {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = new ArrayList<>(s.filter(p -> !p.getFileName().toString().equals("expected.json")).sorted().toList());
        }
        // index.json a third of the time: it holds most of the numbers everything else is checked against
        Path target = rnd.nextInt(3) == 0 ? dir.resolve("index.json") : files.get(rnd.nextInt(files.size()));
        byte[] bytes = Files.readAllBytes(target);
        String name = target.getFileName().toString();
        int kind = rnd.nextInt(name.equals("index.json") ? 7 : 5);
        String what;
        switch (kind) {
            case 0 -> {
                int n = 1 + rnd.nextInt(8);
                for (int i = 0; i < n && bytes.length > 0; i++) {
                    bytes[rnd.nextInt(bytes.length)] ^= (byte) (1 << rnd.nextInt(8));
                }
                what = "flip " + n + " bits";
            }
            case 1 -> {
                if (bytes.length < 4) {
                    return name + " too short to damage";
                }
                // offsets and counts sit at 4-byte boundaries near the start; sizes anywhere
                int at = rnd.nextBoolean() ? 4 * rnd.nextInt(Math.min(bytes.length / 4, 64)) : rnd.nextInt(bytes.length - 3);
                long v = rnd.nextInt(4) == 0 ? ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(at)
                        + rnd.nextInt(-16, 17) : INTERESTING[rnd.nextInt(INTERESTING.length)];
                ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(at, (int) v);
                what = "u32 at " + at + " = " + Long.toUnsignedString(v & 0xFFFF_FFFFL);
            }
            case 2 -> {
                int keep = bytes.length == 0 ? 0 : rnd.nextInt(bytes.length);
                bytes = Arrays.copyOf(bytes, keep);
                what = "truncate to " + keep;
            }
            case 3 -> {
                byte[] more = new byte[1 + rnd.nextInt(64)];
                rnd.nextBytes(more);
                byte[] grown = Arrays.copyOf(bytes, bytes.length + more.length);
                System.arraycopy(more, 0, grown, bytes.length, more.length);
                bytes = grown;
                what = "append " + more.length;
            }
            case 4 -> {
                if (bytes.length == 0) {
                    return name + " empty";
                }
                int at = rnd.nextInt(bytes.length);
                int len = Math.min(bytes.length - at, 1 + rnd.nextInt(32));
                byte[] noise = new byte[len];
                rnd.nextBytes(noise);
                System.arraycopy(noise, 0, bytes, at, len);
                what = "overwrite " + len + " bytes at " + at;
            }
            default -> {
                String text = new String(bytes, StandardCharsets.UTF_8);
                Matcher m = (kind == 5 ? NUMBER : STRING).matcher(text);
                List<int[]> spans = new ArrayList<>();
                while (m.find()) {
                    spans.add(new int[] {m.start(), m.end()});
                }
                if (spans.isEmpty()) {
                    return name + " has nothing to replace";
                }
                int[] span = spans.get(rnd.nextInt(spans.size()));
                String by = kind == 5 ? Long.toString(rnd.nextBoolean() ? INTERESTING[rnd.nextInt(INTERESTING.length)]
                        : rnd.nextLong(-3, 1L << 33)) : STRINGS[rnd.nextInt(STRINGS.length)];
                text = text.substring(0, span[0]) + by + text.substring(span[1]);
                bytes = text.getBytes(StandardCharsets.UTF_8);
                what = "replace " + (kind == 5 ? "number" : "string") + " at " + span[0] + " with " + by;
            }
        }
        Files.write(target, bytes);
        return name + ": " + what;
    }
}
