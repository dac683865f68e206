package dev.stoker.formats.tar;

import dev.stoker.data.Dataset;

import dev.stoker.formats.mmap.MapFaults;
import dev.stoker.formats.remote.RemoteFile;
import dev.stoker.formats.remote.RemoteFileException;
import dev.stoker.formats.remote.RemoteSettings;
import dev.stoker.formats.remote.ShardCache;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.UnaryOperator;

/**
 * Remote tar shards as a map-style {@link Dataset}, MosaicML Streaming's model: each shard's
 * {@code .idx} sidecar is fetched when the dataset is made (small: keys and offsets), so that
 * global index {@code i} is known to be sample {@code j} of shard {@code s}; a shard itself is
 * fetched whole into the {@link ShardCache} the first time one of its samples is asked for, and
 * read memory-mapped from there. Samples are zero-copy slices of the map.
 *
 * <p>Random order over remote data is then a matter of the sampler: a
 * {@link dev.stoker.sampler.BlockShuffleSampler} whose blocks are about a shard long keeps a few
 * shards in use at a time, and as the order of an {@link dev.stoker.sampler.ElasticBatchSampler}
 * it resumes mid-epoch on any number of ranks, reading nothing again but what the cache lost. A
 * {@link dev.stoker.sampler.MixtureSampler} over several such datasets mixes them in set shares.
 *
 * <pre>{@code
 * RemoteTarDataset train = RemoteTarDataset.builder("https://host/train-{000000..000999}.tar")
 *         .cache(ShardCache.in(Path.of("/local/ssd/cache"), 200L << 30))
 *         .build();                        // fetches the 1000 sidecars, not the shards
 * TarSample s = train.get(123_456);        // fetches the shard that holds it, once
 * }</pre>
 *
 * <p>A shard's fetch blocks the workers that need it; a worker asking for a shard another is
 * fetching waits for that fetch instead of starting its own. A loader tells it a few batches
 * ahead which samples it will ask for ({@link #willNeed}, {@code LoaderBuilder.lookahead}), so the
 * fetches start before the workers wait. A fetch runs on a thread of its own and finishes into
 * the cache even when the loader that asked for it closes. The cached copy must be the shard the
 * sidecar describes (its length is checked, and each member's tar header when its sample is read);
 * a stale or damaged one is refused naming both, and deleted so that the next read fetches the
 * shard again. Gzip-compressed shards cannot be read by offset and are refused.
 */
public final class RemoteTarDataset implements Dataset<TarSample>, AutoCloseable {
    private final String[] shards;
    private final ShardIndex[] indices;
    private final ShardOffsets offsets;
    private final ShardCache cache;
    private final RemoteSettings remote;
    private final int maxMappedShards;
    /** Shards fetched and mapped, least recently used first; a dropped map lives on in its samples. */
    private final LinkedHashMap<Integer, Future<MemorySegment>> mapped;
    private volatile boolean closed;

    private RemoteTarDataset(Builder b, ShardIndex[] indices) {
        this.shards = b.shards.toArray(String[]::new);
        this.indices = indices;
        this.offsets = new ShardOffsets(indices);
        this.cache = b.cache;
        this.remote = b.settings();
        this.maxMappedShards = b.maxMappedShards;
        this.mapped = new LinkedHashMap<>(16, 0.75f, true);
    }

    /** A builder over {@code patterns}, brace-expanded ({@link ShardPatterns}), in order. */
    public static Builder builder(String... patterns) {
        return builder(ShardPatterns.expandAll(List.of(patterns)));
    }

    /** A builder over these shard locations, in order. */
    public static Builder builder(List<String> shards) {
        return new Builder(shards);
    }

    @Override
    public long size() {
        return offsets.size();
    }

    @Override
    public TarSample get(long index) {
        if (index < 0 || index >= size()) {
            throw new IndexOutOfBoundsException("sample " + index + " of " + size() + " in " + name());
        }
        if (closed) {
            throw new IllegalStateException(name() + " is closed");
        }
        int s = shardOf(index);
        MemorySegment shard = shard(s);
        try {
            TarSample sample = indices[s].sample((int) (index - offsets.start(s)), shard, shards[s]);
            MapFaults.deliverPending();
            return sample;
        } catch (TarException e) {
            // The copy has the sidecar's length but not its members: damaged on disk since it was kept.
            synchronized (mapped) {
                mapped.remove(s);
            }
            throw ShardSources.damaged(e, ShardCache.dropDamaged(cache.fileFor(shards[s])));
        } catch (InternalError e) {
            // The copy was cut short under its map (another process, a cleaner): name it, and let
            // the next read fetch the shard again.
            synchronized (mapped) {
                mapped.remove(s);
            }
            Path copy = cache.fileFor(shards[s]);
            Error named = MapFaults.changed(e, copy, shard.byteSize(), "sample " + index
                    + " (the cached copy of " + shards[s] + ")");
            try {
                Files.deleteIfExists(copy);
            } catch (IOException ignored) {
                // the error above says what happened either way
            }
            throw named;
        }
    }

    /** The shard that holds global sample {@code index}. */
    public int shardOf(long index) {
        return offsets.shardOf(index);
    }

    /** The number of shards. */
    public int shardCount() {
        return shards.length;
    }

    /** The index of shard {@code s}, from its sidecar. */
    public ShardIndex index(int s) {
        return indices[s];
    }

    /**
     * Starts fetching the shards that hold {@code indices}, without waiting: the loader calls this
     * a few batches before it asks for the samples ({@code LoaderBuilder.lookahead}).
     */
    @Override
    public void willNeed(long[] indices) {
        int last = -1;
        for (long i : indices) {
            if (i >= 0 && i < size() && !closed) {
                int s = shardOf(i);
                if (s != last) { // a batch's indices often run through one shard
                    mapping(s);
                    last = s;
                }
            }
        }
    }

    /** Shard {@code s}'s map: fetched and mapped by the first caller, waited for by the others. */
    private MemorySegment shard(int s) {
        Future<MemorySegment> f = mapping(s);
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TarException(shards[s], 0, "interrupted while waiting for the shard to be fetched", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new TarException(shards[s], 0, "fetching it failed: " + e.getCause(), e.getCause());
        }
    }

    /** Shard {@code s}'s map as it is, or as it will be once the fetch this starts is done. */
    private Future<MemorySegment> mapping(int s) {
        CompletableFuture<MemorySegment> mine = null;
        Future<MemorySegment> f;
        synchronized (mapped) {
            f = mapped.get(s);
            if (f == null) {
                mine = new CompletableFuture<>();
                mapped.put(s, mine);
                f = mine;
                dropEldestMaps();
            }
        }
        if (mine != null) {
            // On a thread of its own, so that a worker interrupted while it waits (a loader closing,
            // a timeout) does not throw away a fetch that the next pass will want.
            CompletableFuture<MemorySegment> fetch = mine;
            Thread.ofVirtual().name("stoker-fetch " + shards[s]).start(() -> {
                try {
                    fetch.complete(fetchAndMap(s));
                } catch (Throwable e) {
                    synchronized (mapped) {
                        mapped.remove(s, fetch); // the next caller tries again
                    }
                    fetch.completeExceptionally(e);
                }
            });
        }
        return f;
    }

    /** Lets the least recently used maps go down to the bound; a fetch under way is never dropped (others wait on it). */
    private void dropEldestMaps() {
        var it = mapped.values().iterator();
        int excess = mapped.size() - maxMappedShards;
        while (excess > 0 && it.hasNext()) {
            if (it.next().isDone()) {
                it.remove();
                excess--;
            }
        }
    }

    private MemorySegment fetchAndMap(int s) {
        Path copy = null;
        MemorySegment map = null;
        for (int attempt = 1; map == null; attempt++) {
            try {
                copy = cache.fetchPinned(shards[s], remote); // pinned until mapped
            } catch (RemoteFileException e) {
                throw new TarException(shards[s], 0, e.what(), e);
            }
            try {
                // An automatic arena: samples handed out keep the map alive after it leaves the LRU list.
                MemorySegment segment = MappedTarSource.map(copy, Arena.ofAuto());
                if (GzipShards.isGzip(segment)) {
                    throw new TarException(shards[s], 0, "is gzip-compressed: a compressed shard cannot be read by"
                            + " offset (stream it with TarShardDataset, or store it uncompressed)");
                }
                map = segment;
            } catch (TarException e) {
                // Another process sharing the cache evicted it between the fetch and the map: again.
                if (attempt == 3 || Files.exists(copy)) {
                    throw e;
                }
            } finally {
                cache.unpin(copy);
            }
        }
        if (map.byteSize() != indices[s].shardLength()) {
            try {
                Files.deleteIfExists(copy);
            } catch (IOException ignored) {
                // the error below fails the sample either way
            }
            throw new TarException(shards[s], 0, "is " + map.byteSize() + " bytes but its index describes "
                    + indices[s].shardLength() + " (stale index: rebuild it with stoker index and upload it again)");
        }
        return map;
    }

    @Override
    public String name() {
        return "remote tar shards (" + shards.length + (shards.length == 0 ? "" : ", first " + shards[0]) + ")";
    }

    /** Forgets the mapped shards; samples already taken stay readable until they are unreachable. */
    @Override
    public void close() {
        closed = true;
        synchronized (mapped) {
            mapped.clear();
        }
    }

    /** Settings of a {@link RemoteTarDataset}. */
    public static final class Builder {
        private final List<String> shards;
        private ShardCache cache;
        private UnaryOperator<String> indexLocation = s -> s + ".idx";
        private boolean indexLocationSet;
        private HttpClient http = RemoteSettings.defaultClient();
        private int readAhead = RemoteSettings.DEFAULT_READ_AHEAD;
        private Duration readTimeout = RemoteSettings.DEFAULT_STALL_TIMEOUT;
        private int maxMappedShards = 64;
        private int indexFetches = 16;

        private Builder(List<String> shards) {
            this.shards = new ArrayList<>(shards);
        }

        /** Where shards are kept (required): they are read from the copies there. */
        public Builder cache(ShardCache cache) {
            this.cache = Objects.requireNonNull(cache, "cache");
            return this;
        }

        /**
         * Where each shard's sidecar is, from the shard's location (default: the location with
         * {@code .idx} appended; a {@code pipe:} command needs its own, e.g.
         * {@code s -> s.replace(".tar -", ".tar.idx -")}).
         */
        public Builder indexLocation(UnaryOperator<String> indexLocation) {
            this.indexLocation = Objects.requireNonNull(indexLocation, "indexLocation");
            this.indexLocationSet = true;
            return this;
        }

        /** The HTTP client for {@code http(s)://} shards (default: {@link RemoteSettings#defaultClient()}). */
        public Builder httpClient(HttpClient client) {
            this.http = Objects.requireNonNull(client, "client");
            return this;
        }

        /** How long a fetch waits for the next bytes before it fails (default 60 s). */
        public Builder readTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("a read timeout is positive, not " + timeout);
            }
            this.readTimeout = timeout;
            return this;
        }

        /**
         * How many shards stay mapped for the next sample (default 64); one dropped is mapped again
         * from the cache when asked for, and fetched again only if the cache let it go.
         */
        public Builder maxMappedShards(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("at least one shard stays mapped, not " + n);
            }
            this.maxMappedShards = n;
            return this;
        }

        /** How many sidecars are fetched at once when the dataset is made (default 16). */
        public Builder indexFetches(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("at least one fetch at a time, not " + n);
            }
            this.indexFetches = n;
            return this;
        }

        /**
         * Fetches every shard's sidecar (or takes it from the cache) and makes the dataset.
         *
         * @throws IllegalArgumentException without a cache, with no shards, or for a {@code pipe:}
         *     shard without {@link #indexLocation}
         * @throws TarException naming the shard whose sidecar cannot be fetched, or is not a valid
         *     index (with the {@link IndexFormatException} that says why as its cause)
         */
        public RemoteTarDataset build() {
            if (cache == null) {
                throw new IllegalArgumentException("a remote tar dataset reads its shards from a local copy: give it"
                        + " a cache (.cache(ShardCache.in(dir)))");
            }
            if (shards.isEmpty()) {
                throw new IllegalArgumentException("no shards given");
            }
            for (String s : shards) {
                if (!ShardSources.isStreamed(s)) {
                    throw new IllegalArgumentException(s + " is a local file: read local shards with IndexedTarDataset");
                }
                if (RemoteFile.isPipe(s) && !indexLocationSet) {
                    throw new IllegalArgumentException(s + " is a command: say where its sidecar is with"
                            + " indexLocation(shard -> command that writes the .idx)");
                }
            }
            return new RemoteTarDataset(this, fetchIndices());
        }

        private RemoteSettings settings() {
            return new RemoteSettings(http, readAhead, readTimeout);
        }

        private ShardIndex[] fetchIndices() {
            ShardIndex[] out = new ShardIndex[shards.size()];
            Semaphore slots = new Semaphore(indexFetches);
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<ShardIndex>> pending = new ArrayList<>();
                for (String shard : shards) {
                    pending.add(pool.submit(() -> {
                        slots.acquire();
                        try {
                            return indexOf(shard);
                        } finally {
                            slots.release();
                        }
                    }));
                }
                for (int s = 0; s < out.length; s++) {
                    try {
                        out[s] = pending.get(s).get();
                    } catch (ExecutionException e) {
                        for (Future<ShardIndex> f : pending) {
                            f.cancel(true);
                        }
                        if (e.getCause() instanceof RuntimeException r) {
                            throw r;
                        }
                        throw new TarException(shards.get(s), 0, "its index could not be fetched: " + e.getCause(),
                                e.getCause());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new TarException(shards.get(s), 0, "interrupted while fetching its index", e);
                    }
                }
            }
            return out;
        }

        private ShardIndex indexOf(String shard) {
            String location = indexLocation.apply(shard);
            Path copy;
            try {
                copy = cache.fetchIndexPinned(location, settings());
            } catch (RemoteFileException e) {
                throw new TarException(shard, 0, "its index " + location + " could not be fetched ("
                        + e.getMessage() + "); write one with `stoker index` beside the shard", e);
            }
            try {
                return ShardIndex.read(copy);
            } catch (RuntimeException e) {
                try {
                    Files.deleteIfExists(copy); // a fixed sidecar is fetched again next time
                } catch (IOException ignored) {
                    // the error below says what is wrong either way
                }
                throw new TarException(shard, 0, "its index " + location + " is not a valid shard index: "
                        + e.getMessage(), e);
            } finally {
                cache.unpin(copy); // index copies are never evicted; the pin only has to go
            }
        }
    }

    @Override
    public String toString() {
        return name() + " (" + size() + " samples, cached in " + cache.dir() + ")";
    }
}
