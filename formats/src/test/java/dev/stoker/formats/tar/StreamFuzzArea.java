package dev.stoker.formats.tar;

import dev.stoker.formats.remote.StallGuardInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Shards over streams that misbehave the way connections do: bytes in odd-sized pieces, then at a
 * random point the stream ends, fails, or stalls without closing (the stall guard must fire); a
 * wrong announced length; a damaged tar or gzip under it. Read through {@link StreamTarSource},
 * behind a {@link StallGuardInputStream} as HTTP and commands are. A stream delivered whole with
 * its true length (or none) must read as the samples written.
 */
final class StreamFuzzArea implements FuzzArea {
    static final Duration STALL = Duration.ofMillis(100);

    private final byte[] tar;
    private final List<Fixtures.Sample> samples;

    StreamFuzzArea(Path work) {
        Path shard = work.resolve("stream-base.tar");
        samples = FuzzInputs.writeShard(shard, 43, 10);
        try {
            tar = Files.readAllBytes(shard);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public Set<Class<? extends RuntimeException>> refusals() {
        return Set.of(TarException.class);
    }

    @Override
    public Case make(long seed, Path work) {
        Random rnd = new Random(seed);
        boolean gzip = rnd.nextInt(3) == 0;
        byte[] body = gzip ? FuzzInputs.gzip(tar) : tar;
        boolean damaged = rnd.nextInt(4) == 0;
        if (damaged) {
            body = gzip ? FuzzInputs.gzip(TarCorruptionTest.damage(tar, rnd)) : TarCorruptionTest.damage(tar, rnd);
        }
        // a stall costs the stall timeout: one case in eight
        Ending ending = rnd.nextInt(8) == 0 ? Ending.STALL : Ending.values()[rnd.nextInt(3)];
        int at = ending == Ending.WHOLE ? body.length : rnd.nextInt(body.length + 1);
        long announced = switch (rnd.nextInt(4)) {
            case 0 -> -1;
            case 1 -> body.length + rnd.nextInt(2000) - 1000;
            default -> body.length;
        };
        if (gzip) {
            announced = -1; // a compressed body's length is not the tar's
        }
        boolean guarded = rnd.nextBoolean() || ending == Ending.STALL;
        String name = "stream-case-" + seed;
        String what = (gzip ? "gzip " : "") + (damaged ? "damaged " : "") + "tar of " + body.length + " bytes, "
                + ending + " at " + at + ", length " + announced + (guarded ? ", stall guard" : "");
        byte[] input = body;
        long length = announced;
        boolean mustBeWhole = !damaged && at == body.length && ending != Ending.STALL && ending != Ending.FAIL
                && (length < 0 || length == body.length);
        return new Case(what, () -> {
            InputStream in = new Misbehaving(input, at, ending, rnd.nextLong());
            if (guarded) {
                in = new StallGuardInputStream(in, name, 1 << 16, STALL);
            }
            TarReader r = gzip ? TarReader.open(name, GzipShards.inflatingIfGzip(in, name), -1, FuzzInputs.MAX_MEMBER)
                    : TarReader.open(name, in, length, FuzzInputs.MAX_MEMBER);
            List<Fixtures.Sample> got = FuzzInputs.readAll(r);
            if (mustBeWhole) {
                FuzzInputs.assertSame(got, samples, name);
            }
            return got;
        }, List.of(name));
    }

    /** What a stream does after its first {@code at} bytes. */
    enum Ending { WHOLE, END, FAIL, STALL }

    /** Delivers bytes in random pieces, then ends, fails or blocks (until closed) at {@code at}. */
    static final class Misbehaving extends InputStream {
        private final byte[] bytes;
        private final int at;
        private final Ending ending;
        private final Random rnd;
        private int position;
        private volatile boolean closed;

        Misbehaving(byte[] bytes, int at, Ending ending, long seed) {
            this.bytes = bytes;
            this.at = Math.min(at, bytes.length);
            this.ending = ending;
            this.rnd = new Random(seed);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (position >= at) {
                switch (ending) {
                    case FAIL -> throw new IOException("connection reset (fuzz)");
                    case STALL -> {
                        try {
                            while (!closed) {
                                Thread.sleep(50); // until the stall guard gives up and closes it
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        throw new IOException("closed while stalled");
                    }
                    default -> {
                        return -1;
                    }
                }
            }
            int n = Math.min(Math.min(len, at - position), 1 + rnd.nextInt(rnd.nextBoolean() ? 7 : 20000));
            System.arraycopy(bytes, position, b, off, n);
            position += n;
            return n;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
