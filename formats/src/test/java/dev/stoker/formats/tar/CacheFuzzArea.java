package dev.stoker.formats.tar;

import dev.stoker.formats.remote.ShardCache;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * Cached copies of remote shards damaged on disk between two runs (cut short, a header byte
 * changed, replaced by garbage or by another shard of the same length, emptied) and partial
 * downloads left behind by a killed process, read again by {@link TarShardDataset} and
 * {@link RemoteTarDataset}. The second run reads the samples written (or, for a copy cut at a
 * block boundary, which a tar cannot tell from its end, the first of them) or fails naming the
 * shard; after a failure the next run fetches the shard again and reads it whole.
 */
final class CacheFuzzArea implements FuzzArea {
    private static final WorkerContext ONE = new WorkerContext(0, 1, 0, 1, 0, 0);

    private final Path shard;
    private final byte[] bytes;
    private final byte[] reordered;
    private final List<Fixtures.Sample> samples;
    private final long[] headers;

    CacheFuzzArea(Path work) {
        shard = work.resolve("cache-base.tar");
        samples = FuzzInputs.writeShard(shard, 59, 12);
        List<Fixtures.Sample> shuffled = new ArrayList<>(samples);
        java.util.Collections.shuffle(shuffled, new Random(7));
        Path other = work.resolve("cache-reordered.tar");
        FuzzInputs.writeShard(other, shuffled);
        try {
            bytes = Files.readAllBytes(shard);
            reordered = Files.readAllBytes(other);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        List<Long> at = new ArrayList<>();
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined();
             TarReader r = TarReader.open(shard, arena)) {
            r.forEachRemaining(m -> at.add(m.dataOffset() - TarHeader.BLOCK));
        }
        headers = at.stream().mapToLong(Long::longValue).toArray();
    }

    @Override
    public Set<Class<? extends RuntimeException>> refusals() {
        return Set.of(TarException.class);
    }

    @Override
    public Case make(long seed, Path work) throws IOException {
        Random rnd = new Random(seed);
        Path cacheDir = work.resolve("cache-" + seed);
        String location = "pipe:cat '" + shard + "'";
        boolean remote = rnd.nextBoolean();
        // each run opens the cache anew, as a new process would
        Callable<List<Fixtures.Sample>> run = remote ? () -> readRemote(location, ShardCache.in(cacheDir))
                : () -> readStreamed(location, ShardCache.in(cacheDir));
        ShardCache cache = ShardCache.in(cacheDir);
        try {
            FuzzInputs.assertSame(call(run), samples, "the first run");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        Path copy = cache.fileFor(location);
        boolean prefixAllowed = false;
        Path left = null;
        String what;
        switch ((int) (seed % 6)) {
            case 0 -> {
                int at = rnd.nextInt(bytes.length);
                Files.write(copy, Arrays.copyOf(bytes, at));
                prefixAllowed = at % TarHeader.BLOCK == 0;
                what = "copy cut at " + at;
            }
            case 1 -> {
                byte[] bad = bytes.clone();
                long header = headers[rnd.nextInt(headers.length)];
                bad[(int) header + rnd.nextInt(TarHeader.BLOCK)] ^= (byte) (1 + rnd.nextInt(255));
                Files.write(copy, bad);
                what = "a header byte of the copy changed";
            }
            case 2 -> {
                byte[] bad = new byte[rnd.nextBoolean() ? bytes.length : rnd.nextInt(bytes.length)];
                rnd.nextBytes(bad);
                Files.write(copy, bad);
                what = "copy replaced by " + bad.length + " random bytes";
            }
            case 3 -> {
                Files.write(copy, new byte[0]);
                what = "copy emptied";
            }
            case 4 -> {
                Files.write(copy, reordered);
                what = "copy replaced by the shard's samples in another order";
            }
            default -> {
                Files.delete(copy);
                Path part = Files.createTempFile(cacheDir, "." + copy.getFileName(), ShardCache.PART);
                Files.write(part, Arrays.copyOf(bytes, rnd.nextInt(bytes.length)));
                Files.setLastModifiedTime(part, FileTime.fromMillis(System.currentTimeMillis() - 86_400_000L));
                left = part;
                what = "a partial download left behind, the copy gone";
            }
        }
        boolean prefix = prefixAllowed;
        Path abandoned = left;
        String reader = remote ? "RemoteTarDataset" : "TarShardDataset";
        return new Case(what + ", read by " + reader, () -> {
            List<Fixtures.Sample> got;
            try {
                got = call(run);
            } catch (TarException e) {
                List<Fixtures.Sample> next;
                try {
                    next = call(run);
                } catch (TarException again) {
                    throw new AssertionError("the run after a refusal is refused again: " + again.getMessage(), e);
                }
                FuzzInputs.assertSame(next, samples, "the run after a refusal"); // fetched again, read whole
                throw e;
            }
            if (abandoned != null && Files.exists(abandoned)) {
                throw new AssertionError("the partial download left behind is still there: " + abandoned);
            }
            if (prefix && got.size() < samples.size()) {
                FuzzInputs.assertSame(got, samples.subList(0, got.size()), location);
            } else {
                FuzzInputs.assertSame(got, samples, location);
            }
            return got;
        }, List.of(location));
    }

    private static <T> T call(Callable<T> c) throws Exception {
        return c.call();
    }

    private static List<Fixtures.Sample> readStreamed(String location, ShardCache cache) {
        TarShardDataset ds = TarShardDataset.builder(List.of(location)).cache(cache).build();
        List<Fixtures.Sample> out = new ArrayList<>();
        try (SampleStream<TarSample> s = ds.open(ONE)) {
            s.forEachRemaining(t -> out.add(copy(t)));
        }
        return out;
    }

    private static List<Fixtures.Sample> readRemote(String location, ShardCache cache) {
        RemoteTarDataset ds = RemoteTarDataset.builder(List.of(location)).cache(cache)
                .indexLocation(s -> s.replace(".tar'", ".tar.idx'")).build();
        List<Fixtures.Sample> out = new ArrayList<>();
        try (ds) {
            for (long i = 0; i < ds.size(); i++) {
                out.add(copy(ds.get(i)));
            }
        }
        return out;
    }

    private static Fixtures.Sample copy(TarSample s) {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        for (String e : s.extensions()) {
            fields.put(e, s.bytes(e));
        }
        return new Fixtures.Sample(s.key(), fields);
    }
}
