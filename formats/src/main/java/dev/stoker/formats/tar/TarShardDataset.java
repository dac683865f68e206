package dev.stoker.formats.tar;

import dev.stoker.data.ReshardableStreamingDataset;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.formats.remote.RemoteSettings;
import dev.stoker.formats.remote.ShardCache;
import dev.stoker.random.Seeds;
import java.lang.foreign.Arena;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * WebDataset tar shards as a {@link StreamingDataset}: each worker reads its share of the shards
 * ({@link ShardAssignment}) from first member to last, grouping members into {@link TarSample}s by
 * key, optionally through a per-worker {@link ShuffleBuffer} seeded by
 * {@code Seeds.mix(seed, epoch, globalWorkerId)}. Shards may be local files (memory-mapped, samples
 * are zero-copy slices), {@code http(s)://} URLs or {@code pipe:} commands (streamed; with a
 * {@link ShardCache}, streamed once and then read from a local copy).
 *
 * <pre>{@code
 * TarShardDataset shards = TarShardDataset.builder("data/shard-{000000..000007}.tar")
 *         .shuffleShards(true)
 *         .shuffleBuffer(1000)
 *         .build();
 * }</pre>
 *
 * <p>NOTE: a local shard is mapped into an automatic arena, so a sample's segments stay valid for
 * as long as the sample is reachable, also after the stream moved to the next shard; the map is
 * released by the garbage collector.
 *
 * <p>Resume ({@code DataLoader.state()/restore}): a resumed worker's stream passes over the shards
 * it had delivered whole, using their {@code .idx} sidecars without opening them, and walks the
 * member headers of the shard where it stood. With a shuffle buffer the samples are read again up
 * to that point (the buffer's contents are a function of them), but none is decoded by the loader.
 * Without a shuffle buffer (and without {@code samplesPerWorker}) it is also reshardable: a state
 * merged from every rank ({@code LoaderState.merge}) resumes on any number of workers and ranks,
 * what is left of each shard dealt out again ({@link ShardPieces}).
 */
public final class TarShardDataset implements ReshardableStreamingDataset<TarSample> {
    private final List<String> shards;
    private final boolean shuffleShards;
    private final int shuffleBuffer;
    private final boolean skipCorruptShards;
    private final ShardOpener opener;
    private final long samplesPerWorker;

    private TarShardDataset(Builder b) {
        this.shards = List.copyOf(b.shards);
        this.shuffleShards = b.shuffleShards;
        this.shuffleBuffer = b.shuffleBuffer;
        this.skipCorruptShards = b.skipCorruptShards;
        this.opener = new ShardOpener(b.http != null ? b.http : RemoteSettings.defaultClient(), b.readAhead,
                b.readTimeout, b.cache, b.maxMemberBytes);
        this.samplesPerWorker = b.samplesPerWorker;
    }

    /** A builder over shard patterns or names (brace-expanded, see {@link ShardPatterns}). */
    public static Builder builder(String... patterns) {
        return new Builder(ShardPatterns.expandAll(List.of(patterns)));
    }

    /** A builder over shard names taken as they are (no brace expansion). */
    public static Builder builder(List<String> shards) {
        return new Builder(shards);
    }

    /** Every shard, in the given order. */
    public List<String> shards() {
        return shards;
    }

    @Override
    public SampleStream<TarSample> open(WorkerContext context) {
        List<String> mine = ShardAssignment.forWorker(shards, shuffleShards, context);
        SampleStream<TarSample> source = samplesPerWorker > 0
                ? FixedLengthStream.of(() -> new ShardChain(mine, opener, skipCorruptShards), samplesPerWorker)
                : new ShardChain(mine, opener, skipCorruptShards);
        if (shuffleBuffer <= 0) {
            return source;
        }
        long stream = Seeds.mix(context.seed(), context.epoch(), context.globalWorkerId());
        Iterator<TarSample> shuffled = new ShuffleBuffer<>(source, shuffleBuffer, stream);
        return new SampleStream<>() {
            public boolean hasNext() {
                return shuffled.hasNext();
            }

            public TarSample next() {
                return shuffled.next();
            }

            public void close() {
                source.close();
            }
        };
    }

    /**
     * What is left of {@code epoch} after streams of another layout delivered {@code positions}:
     * per shard of {@link #shards()}, the samples delivered ({@link ShardPieces}). It needs each
     * shard's sample count, from its {@code .idx} sidecar or by walking its headers.
     *
     * @throws IllegalStateException with a shuffle buffer (it delivers samples out of stream order,
     *     so a position says nothing about which ones), with {@code samplesPerWorker} (streams
     *     cycle their shards), or with remote shards (their sample counts would mean reading them)
     */
    @Override
    public long[] cursor(long seed, long epoch, long[] start, long[] positions, boolean[] ended) {
        requireReshardable();
        long[] counts = new long[shards.size()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = sampleCount(shards.get(i));
        }
        return ShardPieces.advance(ShardPieces.epochOrder(shards, shuffleShards, seed, epoch), start, counts,
                positions, ended);
    }

    /**
     * Checks a cursor from a saved state: one entry per shard of {@link #shards()}, each
     * {@code -1} (shard done) or a sample of that shard (checked against its count when the shard
     * is local; a remote shard's count would mean reading it).
     */
    @Override
    public void checkCursor(long[] cursor) {
        if (cursor.length != shards.size()) {
            throw new IllegalArgumentException("the cursor has " + cursor.length + " entries, one per shard, but "
                    + name() + " has " + shards.size() + " shards: a state of another shard list?");
        }
        for (int i = 0; i < cursor.length; i++) {
            long from = cursor[i];
            if (from == ShardPieces.DONE) {
                continue;
            }
            if (from < 0) {
                throw new IllegalArgumentException("the cursor's entry for shard " + shards.get(i) + " is " + from
                        + ", neither a sample nor -1 (done)");
            }
            if (!ShardSources.isStreamed(shards.get(i))) {
                long count = sampleCount(shards.get(i));
                if (from > count) {
                    throw new IllegalArgumentException("the cursor starts shard " + shards.get(i) + " at sample "
                            + from + ", but it holds " + count + ": a state of other shards?");
                }
            }
        }
    }

    /** This worker's pieces of what is left after {@code cursor}: the rest of some shards, in epoch order. */
    @Override
    public SampleStream<TarSample> open(WorkerContext context, long[] cursor) {
        requireReshardable();
        if (cursor.length != shards.size()) {
            throw new IllegalArgumentException("a cursor of " + cursor.length + " shards for " + shards.size());
        }
        int[] order = ShardPieces.epochOrder(shards, shuffleShards, context.seed(), context.epoch());
        List<ShardPieces.Piece> mine = ShardPieces.mine(ShardPieces.left(order, cursor), context.globalWorkerId(),
                context.globalWorkers());
        List<String> names = new ArrayList<>(mine.size());
        long[] offsets = new long[mine.size()];
        for (int i = 0; i < offsets.length; i++) {
            names.add(shards.get(mine.get(i).shard()));
            offsets[i] = mine.get(i).from();
        }
        return new ShardChain(names, offsets, opener, skipCorruptShards);
    }

    private void requireReshardable() {
        if (shuffleBuffer > 0) {
            throw new IllegalStateException("its shuffle buffer delivers samples out of stream order, so how far a"
                    + " stream got does not say which samples it delivered; resume with the same workers, rank and"
                    + " world size, or read the shards map-style (IndexedTarDataset)");
        }
        if (samplesPerWorker > 0) {
            throw new IllegalStateException("with samplesPerWorker its streams cycle their shards; resume with the"
                    + " same workers, rank and world size");
        }
    }

    private static long sampleCount(String shard) {
        if (ShardSources.isStreamed(shard)) {
            throw new IllegalStateException("remote shard " + shard + ": its sample count would mean reading it");
        }
        int indexed = ShardChain.indexedSampleCount(shard);
        if (indexed >= 0) {
            return indexed;
        }
        if (ShardSources.isCompressedLocal(shard)) {
            return countByReading(shard); // no map to scan: inflate it once
        }
        return ShardIndex.scan(ShardSources.localPath(shard)).sampleCount();
    }

    private static long countByReading(String shard) {
        try (Arena arena = Arena.ofConfined();
             TarReader reader = ShardSources.open(shard, arena, null, RemoteSettings.DEFAULT_READ_AHEAD)) {
            SampleGrouper samples = new SampleGrouper(reader);
            long n = 0;
            for (; samples.hasNext(); n++) {
                samples.next();
            }
            return n;
        }
    }

    @Override
    public String name() {
        return "tar shards (" + shards.size() + (shards.isEmpty() ? "" : ", first " + shards.getFirst()) + ")";
    }

    /** Settings of a {@link TarShardDataset}. */
    public static final class Builder {
        private final List<String> shards;
        private boolean shuffleShards;
        private int shuffleBuffer;
        private boolean skipCorruptShards;
        private HttpClient http;
        private int readAhead = RemoteSettings.DEFAULT_READ_AHEAD;
        private Duration readTimeout = RemoteSettings.DEFAULT_STALL_TIMEOUT;
        private long samplesPerWorker;
        private ShardCache cache;
        private long maxMemberBytes = StreamTarSource.defaultMaxMember();

        private Builder(List<String> shards) {
            if (shards.isEmpty()) {
                throw new IllegalArgumentException("no shards given");
            }
            this.shards = new ArrayList<>(shards);
        }

        /** Permute the shard order each epoch with the loader's seed (default: off). */
        public Builder shuffleShards(boolean on) {
            this.shuffleShards = on;
            return this;
        }

        /** A per-worker shuffle buffer of this many raw samples; 0 (the default) for none. */
        public Builder shuffleBuffer(int samples) {
            if (samples < 0) {
                throw new IllegalArgumentException("shuffle buffer of " + samples + " samples");
            }
            this.shuffleBuffer = samples;
            return this;
        }

        /**
         * On a corrupt or truncated shard, keep the samples read before the problem and go on with
         * the next shard, instead of failing (default: fail). {@link ShardChain#skipped()} counts them.
         */
        public Builder skipCorruptShards(boolean on) {
            this.skipCorruptShards = on;
            return this;
        }

        /**
         * Every worker delivers exactly {@code n} samples per epoch (0, the default: as many as its
         * shards hold), re-reading its shards from the start when they hold fewer and stopping
         * early when they hold more, so that all ranks get the same number of batches; see
         * {@link FixedLengthStream}. A sensible {@code n} is the total sample count divided by
         * {@code worldSize * numWorkers}.
         */
        public Builder samplesPerWorker(long n) {
            if (n < 0) {
                throw new IllegalArgumentException(n + " samples per worker");
            }
            this.samplesPerWorker = n;
            return this;
        }

        /** The HTTP client for {@code http(s)://} shards (default: {@link RemoteSettings#defaultClient()}). */
        public Builder httpClient(HttpClient client) {
            this.http = client;
            return this;
        }

        /** Bytes buffered ahead of the parser when streaming a shard over HTTP (default 1 MiB). */
        public Builder readAhead(int bytes) {
            this.readAhead = bytes;
            return this;
        }

        /**
         * How long a read of an HTTP shard may wait for the next bytes before the shard fails with
         * an error naming it (default 60 s); the JDK client itself has no read timeout.
         */
        public Builder readTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("a read timeout is positive, not " + timeout);
            }
            this.readTimeout = timeout;
            return this;
        }

        /**
         * Keep copies of remote shards in {@code cache}, so that later epochs read them from local
         * disk (default: none, every epoch streams them again); see {@link ShardCache}.
         */
        public Builder cache(ShardCache cache) {
            this.cache = cache;
            return this;
        }

        /**
         * The largest member a streamed shard (over HTTP, from a command, gzip-compressed) may
         * have: it is held whole in memory, so a larger one fails its shard before anything is
         * allocated for it (default 1 GiB, or a quarter of the heap when that is less). Mapped
         * shards need no such bound.
         */
        public Builder maxMemberBytes(long bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("a largest member is positive, not " + bytes + " bytes");
            }
            this.maxMemberBytes = bytes;
            return this;
        }

        /**
         * @throws ShardSetException when a local shard belongs to a set still being written, whose
         *     writer was killed, or that its manifest does not describe (see {@link ShardSets})
         */
        public TarShardDataset build() {
            ShardSets.check(shards);
            return new TarShardDataset(this);
        }
    }
}
