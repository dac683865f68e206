package dev.stoker.formats.tar;

import java.io.ByteArrayInputStream;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Gzip-compressed shards, damaged: cut short, bytes of the deflate data, its header or its
 * trailer changed, garbage after it, a damaged tar compressed whole, and gzip bombs (a few
 * kilobytes that inflate to megabytes: a member larger than the bound, a run of zeros after the
 * end marker, a skipped member of megabytes). Read as a stream and from a local file by its magic.
 * Damage to the compressed bytes is caught by gzip's CRC: a case that reads cleanly must give the
 * samples written.
 */
final class GzipFuzzArea implements FuzzArea {
    private final byte[] tar;
    private final byte[] gz;
    private final List<Fixtures.Sample> samples;

    GzipFuzzArea(Path work) {
        Path shard = work.resolve("gzip-base.tar");
        samples = FuzzInputs.writeShard(shard, 41, 12);
        try {
            tar = Files.readAllBytes(shard);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        gz = FuzzInputs.gzip(tar);
    }

    @Override
    public Set<Class<? extends RuntimeException>> refusals() {
        return Set.of(TarException.class);
    }

    @Override
    public Case make(long seed, Path work) throws Exception {
        Random rnd = new Random(seed);
        byte[] bad = gz.clone();
        String what;
        boolean crcGuarded = true; // damage gzip's CRC-32 catches: a clean read must be the samples written
        switch ((int) (seed % 9)) {
            case 0 -> {
                int at = rnd.nextInt(gz.length);
                bad = Arrays.copyOf(gz, at);
                what = "cut at " + at + " of " + gz.length;
            }
            case 1 -> {
                int n = 1 + rnd.nextInt(4);
                for (int k = 0; k < n; k++) {
                    bad[10 + rnd.nextInt(gz.length - 18)] ^= (byte) (1 + rnd.nextInt(255));
                }
                what = n + " deflate bytes changed";
            }
            case 2 -> {
                int at = rnd.nextInt(10);
                bad[at] ^= (byte) (1 + rnd.nextInt(255));
                what = "gzip header byte " + at + " changed";
            }
            case 3 -> {
                int at = gz.length - 1 - rnd.nextInt(8);
                bad[at] ^= (byte) (1 + rnd.nextInt(255));
                what = "gzip trailer byte " + at + " changed";
            }
            case 4 -> {
                byte[] tail = new byte[1 + rnd.nextInt(3000)];
                rnd.nextBytes(tail);
                if (rnd.nextBoolean()) {
                    tail[0] = 0x1f;
                    if (tail.length > 1) {
                        tail[1] = (byte) 0x8b;
                    }
                }
                bad = Arrays.copyOf(gz, gz.length + tail.length);
                System.arraycopy(tail, 0, bad, gz.length, tail.length);
                what = tail.length + " bytes of garbage after the gzip data";
            }
            case 5 -> {
                bad = FuzzInputs.gzip(TarCorruptionTest.damage(tar, rnd));
                crcGuarded = false;
                what = "a damaged tar, compressed";
            }
            case 6 -> {
                long size = FuzzInputs.MAX_MEMBER + 1 + (long) (rnd.nextDouble() * 077777777777L);
                bad = FuzzInputs.gzipBomb(header("000000.bin", size, (byte) '0'), 2 << 20);
                crcGuarded = false;
                what = "bomb: a member of " + size + " bytes, 2 MiB of zeros";
            }
            case 7 -> {
                bad = FuzzInputs.gzipBomb(tar, 3 << 20);
                what = "bomb: 3 MiB of zeros after the end marker";
            }
            default -> {
                byte type = (byte) "5V8gK".charAt(rnd.nextInt(5));
                long size = (2 << 20) + rnd.nextInt(2 << 20);
                bad = FuzzInputs.gzipBomb(header("000000.bin", size, type), 3 << 20);
                crcGuarded = false;
                what = "bomb: a member of type " + (char) type + " and " + size + " bytes over 3 MiB of zeros";
            }
        }
        byte[] input = bad;
        boolean check = crcGuarded;
        if (rnd.nextBoolean()) {
            String name = "gz-case-" + seed;
            return new Case(what + ", streamed", () -> {
                TarReader r = TarReader.open(name, GzipShards.inflatingIfGzip(new ByteArrayInputStream(input), name),
                        -1, FuzzInputs.MAX_MEMBER);
                List<Fixtures.Sample> got = FuzzInputs.readAll(r);
                if (check) {
                    FuzzInputs.assertSame(got, samples, name);
                }
                return got;
            }, List.of(name));
        }
        Path file = FuzzInputs.write(work.resolve("case.tar.gz"), input);
        return new Case(what + ", from a file", () -> {
            try (Arena arena = Arena.ofConfined()) {
                TarReader r = ShardSources.open(file.toString(), arena, null, 1 << 16, Duration.ofSeconds(30), null,
                        FuzzInputs.MAX_MEMBER);
                List<Fixtures.Sample> got = FuzzInputs.readAll(r);
                if (check) {
                    FuzzInputs.assertSame(got, samples, file.toString());
                }
                return got;
            }
        }, List.of(file.toString()));
    }

    /** One header block of a member of {@code size} bytes and type {@code type}, with its checksum. */
    static byte[] header(String name, long size, byte type) {
        byte[] h = Arrays.copyOf(TarHeaderWriter.headers(name, 0), TarHeader.BLOCK);
        TarNumbers.writeOctal(h, 124, 12, size);
        h[156] = type;
        TarCorruptionTest.fixChecksum(h, 0);
        return h;
    }
}
