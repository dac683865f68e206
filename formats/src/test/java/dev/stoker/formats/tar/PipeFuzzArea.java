package dev.stoker.formats.tar;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * {@code pipe:} shards whose command misbehaves: it writes garbage, stops half-way and exits 0 or
 * fails, stops half-way and hangs with its output open (the stall guard must fire), closes its
 * output and keeps running, or floods its standard error. Each command's own shard is a valid or
 * damaged tar, plain or gzip-compressed.
 */
final class PipeFuzzArea implements FuzzArea {
    private static final Duration STALL = Duration.ofMillis(300);

    private final Path plain;
    private final Path gz;
    private final List<Fixtures.Sample> samples;
    private final long plainLength;
    private final long gzLength;

    PipeFuzzArea(Path work) {
        plain = work.resolve("pipe-base.tar");
        samples = FuzzInputs.writeShard(plain, 47, 8);
        gz = work.resolve("pipe-base.tar.gz");
        try {
            Files.write(gz, FuzzInputs.gzip(Files.readAllBytes(plain)));
            plainLength = Files.size(plain);
            gzLength = Files.size(gz);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public Set<Class<? extends RuntimeException>> refusals() {
        return Set.of(TarException.class);
    }

    @Override
    public Case make(long seed, Path work) throws IOException {
        Random rnd = new Random(seed);
        boolean gzip = rnd.nextBoolean();
        Path base = gzip ? gz : plain;
        long length = gzip ? gzLength : plainLength;
        long cut = rnd.nextLong(length);
        String file = "'" + base + "'";
        String command;
        boolean whole = false;
        switch ((int) (seed % 7)) {
            case 0 -> {
                command = "cat " + file;
                whole = true;
            }
            case 1 -> command = "head -c " + cut + " " + file;
            case 2 -> command = "head -c " + cut + " " + file + "; echo 'disk on fire' >&2; exit 3";
            case 3 -> command = "head -c " + cut + " " + file + "; exec sleep 30";
            case 4 -> command = "head -c " + cut + " " + file + "; exec >&-; exec sleep 30";
            case 5 -> {
                Path garbage = work.resolve("garbage-" + seed);
                byte[] bytes = new byte[rnd.nextInt(20000)];
                rnd.nextBytes(bytes);
                if (rnd.nextBoolean() && bytes.length > 2) {
                    bytes[0] = 0x1f;
                    bytes[1] = (byte) 0x8b;
                }
                Files.write(garbage, bytes);
                command = "cat '" + garbage + "'";
            }
            default -> {
                command = "head -c 200000 /dev/zero >&2; cat " + file;
                whole = true;
            }
        }
        String location = "pipe:" + command;
        boolean mustBeWhole = whole;
        return new Case(command, () -> {
            List<Fixtures.Sample> got = FuzzInputs.readAll(open(location));
            if (mustBeWhole) {
                FuzzInputs.assertSame(got, samples, location);
            }
            return got;
        }, List.of(location));
    }

    private static TarReader open(String location) {
        return ShardSources.open(location, null, null, 1 << 16, STALL, null, FuzzInputs.MAX_MEMBER);
    }
}
