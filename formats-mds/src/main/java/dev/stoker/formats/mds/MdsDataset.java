package dev.stoker.formats.mds;

import dev.stoker.data.Dataset;
import dev.stoker.formats.mmap.MapFaults;
import dev.stoker.formats.mmap.MappedFile;
import dev.stoker.formats.mmap.SharedArena;
import dev.stoker.formats.remote.RemoteFile;
import dev.stoker.formats.remote.RemoteFileException;
import dev.stoker.formats.remote.ShardCache;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A map-style dataset over MosaicML Streaming's MDS shards in a local directory ({@code index.json}
 * and {@code shard.NNNNN.mds}, or {@code .mds.zstd} / {@code .mds.gz}): sample {@code i} of the
 * dataset is sample {@code i} of the shards taken in index order, as Streaming numbers them.
 *
 * <pre>{@code
 * try (MdsDataset ds = MdsDataset.open(Path.of("/data/mds"), MdsOptions.defaults().split("train"))) {
 *     MdsSample s = ds.get(0);
 *     String text = s.string("text");
 *     Tensor tokens = s.tensor("tokens");
 * }
 * }</pre>
 *
 * <p>For training, {@link #tensors} gives the fill path: chosen numeric and fixed-shape ndarray
 * columns written by the loader straight from the memory map into the batch, with no object per
 * sample. JPEG columns feed the vision pipeline's {@code JpegDataset} as LMDB values do:
 * <pre>{@code
 * JpegDataset.of(ds, s -> EncodedImage.of(s.bytes("jpg"), s.longValue("label"), "mds:" + s.index()), pipeline)
 * }</pre>
 *
 * <p>Shards are opened on first use (or ahead of it, from {@link #willNeed}): a compressed shard
 * (zstd or gz; br, bz2 and snappy are refused with what to do) is decompressed once to its raw
 * file beside it, as Streaming does, or into {@link MdsOptions#cacheDir}; raw files are
 * memory-mapped in one shared arena, which {@link #close()} releases.
 *
 * <p>A dataset on a remote (Streaming's {@code remote=}: an {@code http(s)://} base or a
 * {@code pipe:} command, {@link MdsOptions#remote}) opens in a local directory (Streaming's
 * {@code local=}): its index is fetched at open and each shard the first time a sample of it is
 * needed (or hinted by {@link #willNeed}), kept there for the next runs.
 * <pre>{@code
 * MdsDataset.open(Path.of("/ssd/c4"), MdsOptions.defaults().remote("pipe:aws s3 cp s3://bucket/c4/{} -"))
 * }</pre>
 *
 * <p>Every shard is untrusted input: {@code index.json}'s fields are checked for type and range,
 * file names to be plain names (no path, no shell character:
 * {@link dev.stoker.formats.remote.DataFileNames}), each shard's offset table against the index and
 * its size, each sample's column sizes against its length, and every ndarray shape, list count and PIL header
 * against the bytes present; decompression never writes past {@code raw_data.bytes}. Damage is an
 * {@link MdsFormatException} naming the file, the shard, the sample and the column.
 *
 * <p>Stoker has no uint32 or uint64 dtype: uint32 values are widened to int64 (all fit); uint64
 * values are read as int64 where below 2^63 and refused otherwise, since wrapping them to negative
 * numbers would corrupt training silently. Pickle columns are never unpickled: read their bytes.
 *
 * <p>NOTE: samples and tensors from {@link #get} view the memory map; close the dataset after the
 * loaders that use it, and copy what must outlive it.
 */
public final class MdsDataset implements Dataset<MdsSample>, AutoCloseable {
    private final Path dir;
    private final MdsIndex index;
    private final MdsOptions options;
    private final long[] firstSample;
    private final Map<String, Integer> positions;
    private final SharedArena arena;
    private final AtomicReferenceArray<MdsShard> shards;
    private final Object[] locks;
    private final Set<Integer> preparing = ConcurrentHashMap.newKeySet();
    /** Copies of the remote files, or null when the dataset is local. */
    private final ShardCache remote;
    private volatile boolean closed;

    private MdsDataset(Path dir, MdsIndex index, MdsOptions options, ShardCache remote) {
        this.dir = dir;
        this.remote = remote;
        this.index = index;
        this.options = options;
        int n = index.shards().size();
        this.firstSample = new long[n + 1];
        for (int s = 0; s < n; s++) {
            firstSample[s + 1] = firstSample[s] + index.shards().get(s).samples();
        }
        Map<String, Integer> p = new LinkedHashMap<>();
        List<MdsColumn> columns = index.columns();
        for (int c = 0; c < columns.size(); c++) {
            p.put(columns.get(c).name(), c);
        }
        this.positions = Collections.unmodifiableMap(p);
        this.arena = SharedArena.create("mds " + dir);
        this.shards = new AtomicReferenceArray<>(n);
        this.locks = new Object[n];
        for (int s = 0; s < n; s++) {
            locks[s] = new Object();
        }
    }

    /** Opens the dataset in {@code dir} (its {@code index.json}). */
    public static MdsDataset open(Path dir) {
        return open(dir, MdsOptions.defaults());
    }

    /**
     * Opens the dataset in {@code root}, or in {@code root/split} where the options name a split.
     * Reads and checks {@code index.json} and that every shard's file is there; shards themselves
     * are opened on first use.
     *
     * @throws MdsFormatException when the index is missing or malformed, or a shard file is missing
     */
    public static MdsDataset open(Path root, MdsOptions options) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(options, "options");
        Path dir = root;
        if (options.split() != null) {
            Path split = Path.of(options.split());
            if (split.isAbsolute() || split.normalize().startsWith("..") || options.split().isEmpty()) {
                throw new IllegalArgumentException("the split '" + options.split() + "' must be a relative path"
                        + " inside " + root);
            }
            dir = root.resolve(split);
        }
        ShardCache remote = options.remote() == null ? null : ShardCache.in(dir.resolve(REMOTE_COPIES));
        MdsIndex index;
        if (remote == null) {
            index = MdsIndex.read(dir.resolve("index.json"));
        } else {
            RemoteFile indexFile = remoteFile(options, "index.json");
            try {
                index = MdsIndex.read(fetch(remote, indexFile));
            } catch (MdsFormatException e) {
                throw new MdsFormatException(indexFile.location() + ": the index fetched from it, kept as "
                        + e.getMessage(), e);
            }
        }
        MdsDataset ds = new MdsDataset(dir, index, options, remote);
        try {
            for (MdsShardInfo s : remote == null ? index.shards() : List.<MdsShardInfo>of()) {
                ds.checkPresent(s);
            }
        } catch (RuntimeException e) {
            ds.close();
            throw e;
        }
        return ds;
    }

    /** Where the copies of a remote dataset's files are kept, in its local directory. */
    static final String REMOTE_COPIES = ".stoker-remote";

    /** {@code name} as the remote names it: under the split, where there is one. */
    private static String relative(MdsOptions options, String name) {
        return options.split() == null ? name : options.split().replace('\\', '/') + "/" + name;
    }

    private static Path fetch(ShardCache cache, RemoteFile file) {
        try {
            return cache.fetchFile(file);
        } catch (RemoteFileException e) {
            throw new MdsFormatException(file.location() + ": cannot fetch it: " + e.what(), e);
        }
    }

    /** Where the remote's file {@code name} (under the split, where there is one) is fetched from. */
    private static RemoteFile remoteFile(MdsOptions options, String name) {
        try {
            return options.remoteFile(relative(options, name));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("MdsOptions.remote: " + e.getMessage(), e);
        }
    }

    private Path cacheDir() {
        if (options.cacheDir() == null) {
            return dir;
        }
        return options.split() == null ? options.cacheDir() : options.cacheDir().resolve(options.split());
    }

    private void checkPresent(MdsShardInfo s) {
        // exists(), not isRegularFile(): a FIFO or a device where a shard was is not "missing"; its
        // open says what it is (DataFiles, through MappedFile or the decompressor).
        Path raw = dir.resolve(s.raw().basename());
        if (Files.exists(raw)) {
            return;
        }
        if (s.zip() == null) {
            throw new MdsFormatException(raw + ": " + s.label() + ": the shard file is missing");
        }
        Path zip = dir.resolve(s.zip().basename());
        if (!Files.exists(zip) && !Files.isRegularFile(cacheDir().resolve(s.raw().basename()))) {
            throw new MdsFormatException(zip + ": " + s.label() + ": the shard file is missing");
        }
    }

    @Override
    public long size() {
        return firstSample[firstSample.length - 1];
    }

    /** The column names, in stored order. */
    public List<String> columns() {
        return List.copyOf(positions.keySet());
    }

    /** The encoding of {@code column} as index.json names it. */
    public String encoding(String column) {
        return column(column).encoding().text();
    }

    /** The number of shards, zero-sample shards included. */
    public int shards() {
        return index.shards().size();
    }

    /** The dataset's directory (the split's, where one was named). */
    public Path directory() {
        return dir;
    }

    /**
     * Sample {@code index}: typed access to its columns, over the memory map.
     *
     * @throws IndexOutOfBoundsException for an index outside the dataset
     * @throws MdsFormatException        when its shard or its bytes are damaged
     */
    @Override
    public MdsSample get(long index) {
        Objects.checkIndex(index, size());
        int s = shardOf(index);
        MdsShard shard = shard(s);
        try {
            MdsSample sample = new MdsSample(shard, index, index - firstSample[s], positions);
            MapFaults.deliverPending();
            return sample;
        } catch (InternalError e) { // the shard was cut short under its map: name it (free until it happens)
            throw shard.file().changed(e, "sample " + index);
        }
    }

    /**
     * A fillable view of columns {@code columns}, each a numeric scalar ({@code int},
     * {@code int8..uint64}, {@code float16..float64}) or a fixed ndarray ({@code ndarray:DTYPE:SHAPE}):
     * the loader's fill path, with batches {@code {column: (n, ...shape)}}.
     *
     * @throws IllegalArgumentException for a column that is missing or whose values vary in shape
     */
    public MdsTensorDataset tensors(String... columns) {
        return new MdsTensorDataset(this, columns);
    }

    /**
     * Next-token windows from a column of token ids ({@code ndarray:uint16:N} or
     * {@code ndarray:uint32:N}): int64 {@code input} and {@code target} of N - 1 tokens each, the
     * target shifted by one; fillable.
     *
     * @throws IllegalArgumentException for a column that is missing or not such a token array
     */
    public MdsTokenWindows tokenWindows(String column) {
        return new MdsTokenWindows(this, column);
    }

    /** Starts opening (decompressing, mapping) the shards of {@code indices} in the background. */
    @Override
    public void willNeed(long[] indices) {
        long size = size();
        int last = -1;
        for (long i : indices) {
            if (i < 0 || i >= size) {
                continue;
            }
            int s = shardOf(i);
            if (s == last || shards.get(s) != null || closed) {
                continue;
            }
            last = s;
            if (preparing.add(s)) {
                Thread.ofVirtual().name("stoker-mds-prepare-" + s).start(() -> {
                    try {
                        shard(s);
                    } catch (RuntimeException ignored) {
                        // a hint only: the read that needs the shard reports the error
                    } finally {
                        preparing.remove(s);
                    }
                });
            }
        }
    }

    /** The shard holding sample {@code index}: the last shard starting at or before it (skips empty shards). */
    int shardOf(long index) {
        int lo = 0;
        int hi = firstSample.length - 2;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (firstSample[mid] <= index) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * The {@code bytes} of fixed-size column {@code column} of sample {@code index}, a view of the
     * map: located as the fill path locates columns, the sample's layout checked, nothing allocated.
     */
    MemorySegment columnBytes(long index, int column, long bytes) {
        Objects.checkIndex(index, size());
        int s = shardOf(index);
        MdsShard shard = shard(s);
        long local = index - firstSample[s];
        long base = shard.start(local);
        long length = shard.end(local) - base;
        long start = SampleLocator.start(shard, index, local, shard.data(), base, length, column);
        return shard.data().asSlice(base + start, bytes);
    }

    /**
     * What to throw for {@code error}, caught reading sample {@code index} from its shard's map:
     * the error naming the shard's file when it was cut short under the map (see
     * {@link dev.stoker.formats.mmap.MapFaults}).
     */
    Error changed(InternalError error, long index) {
        return shard(shardOf(index)).file().changed(error, "sample " + index);
    }

    /** For messages: the file, shard and sample of {@code index}. */
    String where(long index) {
        int s = shardOf(index);
        return SampleLocator.where(shard(s), index, index - firstSample[s]);
    }

    long firstSample(int shard) {
        return firstSample[shard];
    }

    MdsColumn column(String name) {
        Integer p = positions.get(name);
        if (p == null) {
            throw new IllegalArgumentException("no column '" + name + "' in " + dir + "; the columns are "
                    + positions.keySet());
        }
        return index.columns().get(p);
    }

    int position(String name) {
        column(name);
        return positions.get(name);
    }

    /** Shard {@code s}, opened (decompressed, checked, mapped) on first use. */
    MdsShard shard(int s) {
        MdsShard shard = shards.get(s);
        if (shard != null) {
            return shard;
        }
        synchronized (locks[s]) {
            if (closed) {
                throw new IllegalStateException(name() + " is closed");
            }
            shard = shards.get(s);
            if (shard == null) {
                shard = openShard(index.shards().get(s));
                shards.set(s, shard);
            }
            return shard;
        }
    }

    private MdsShard openShard(MdsShardInfo info) {
        Path raw = dir.resolve(info.raw().basename());
        if (info.zip() != null && !hasSize(raw, info.raw().bytes())) {
            Path cached = cacheDir().resolve(info.raw().basename());
            if (!hasSize(cached, info.raw().bytes())) {
                try {
                    Files.createDirectories(cached.getParent());
                } catch (IOException e) {
                    throw new MdsFormatException(cached.getParent() + ": cannot create the cache directory: " + e, e);
                }
                Path zip = remote == null ? dir.resolve(info.zip().basename()) : fetched(info.zip().basename());
                ShardDecompressor.decompress(zip + ": " + info.label(), info.compression(), zip, cached,
                        info.raw().bytes());
            }
            raw = cached;
        } else if (remote != null && !hasSize(raw, info.raw().bytes())) {
            raw = fetched(info.raw().basename());
        }
        MappedFile file;
        try {
            file = MappedFile.open(raw, arena);
        } catch (IOException e) {
            throw new MdsFormatException(raw + ": " + info.label() + ": cannot map the shard: " + e, e);
        }
        try {
            if (options.verifyHashes()) {
                ShardHashes.verify(raw + ": " + info.label(), file.segment(), info.raw().hashes());
            }
            return new MdsShard(info, file);
        } catch (RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /** The local copy of the remote dataset's file {@code basename}, fetched on first use. */
    private Path fetched(String basename) {
        return fetch(remote, remoteFile(options, basename));
    }

    private static boolean hasSize(Path file, long bytes) {
        try {
            return Files.isRegularFile(file) && Files.size(file) == bytes;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public String name() {
        return "MdsDataset(" + dir + ", " + size() + " samples in " + shards() + " shards)";
    }

    /** Unmaps every shard (again: nothing); use no sample, tensor or loader of this dataset afterwards. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int s = 0; s < locks.length; s++) {
            synchronized (locks[s]) {
                MdsShard shard = shards.getAndSet(s, null);
                if (shard != null) {
                    shard.close();
                }
            }
        }
        arena.close();
    }

    /** Whether the shards' memory is still mapped (false once closed and every shard is unmapped). */
    public boolean isMapped() {
        return arena.isOpen();
    }
}
