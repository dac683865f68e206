package dev.stoker.formats.tar;

import dev.stoker.data.Dataset;
import dev.stoker.formats.mmap.MapFaults;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A set of local tar shards as a map-style {@link Dataset}: global index {@code i} is sample
 * {@code i - start(s)} of the shard {@code s} whose range holds it, shards in the given order.
 * Each shard's {@link ShardIndex} comes from its sidecar file; a shard without one is scanned
 * (and, if asked, the sidecar written beside it). The shards themselves are never written.
 *
 * <p>All shards are mapped once into a shared arena; samples are zero-copy slices, valid until
 * {@link #close()}. {@link #get} is safe from any number of threads.
 *
 * <pre>{@code
 * try (IndexedTarDataset ds = IndexedTarDataset.open("data/shard-{000000..000007}.tar", MissingIndex.BUILD)) {
 *     TarSample s = ds.get(1234);
 * }
 * }</pre>
 */
public final class IndexedTarDataset implements Dataset<TarSample>, AutoCloseable {

    /** What to do for a shard that has no sidecar index. */
    public enum MissingIndex {
        /** Refuse: every shard must have its {@code .idx}. */
        FAIL,
        /** Scan the shard and keep the index in memory. */
        BUILD,
        /** Scan the shard and write the {@code .idx} beside it for next time. */
        BUILD_AND_SAVE
    }

    private final Arena arena;
    private final String[] names;
    private final MemorySegment[] maps;
    private final ShardIndex[] indices;
    private final ShardOffsets offsets;
    private final AtomicBoolean closed = new AtomicBoolean();

    private IndexedTarDataset(Arena arena, String[] names, MemorySegment[] maps, ShardIndex[] indices) {
        this.arena = arena;
        this.names = names;
        this.maps = maps;
        this.indices = indices;
        this.offsets = new ShardOffsets(indices);
    }

    /**
     * Opens the shards at {@code shards} (local paths or {@code file:} URLs; brace-expand patterns
     * first with {@link ShardPatterns}).
     *
     * @throws ShardSetException when a shard belongs to a set still being written, whose writer
     *     was killed, or that its manifest does not describe (see {@link ShardSets})
     */
    public static IndexedTarDataset open(List<String> shards, MissingIndex missing) {
        ShardSets.check(shards); // a set being written, killed or changed is refused before anything is mapped
        Arena arena = Arena.ofShared();
        try {
            int n = shards.size();
            String[] names = new String[n];
            MemorySegment[] maps = new MemorySegment[n];
            ShardIndex[] indices = new ShardIndex[n];
            for (int s = 0; s < n; s++) {
                if (ShardSources.isStreamed(shards.get(s))) {
                    throw new IllegalArgumentException("random access needs local shards; " + shards.get(s)
                            + " is a stream (use TarShardDataset to read it)");
                }
                if (ShardSources.isCompressedLocal(shards.get(s))) {
                    throw new IllegalArgumentException("random access needs uncompressed shards; " + shards.get(s)
                            + " is gzip-compressed (use TarShardDataset to stream it, or gunzip it)");
                }
                Path path = ShardSources.localPath(shards.get(s));
                names[s] = shards.get(s);
                maps[s] = MappedTarSource.map(path, arena);
                indices[s] = indexOf(path, maps[s], missing);
            }
            return new IndexedTarDataset(arena, names, maps, indices);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** Opens the shards a brace pattern names, e.g. {@code data/shard-{000000..000007}.tar}. */
    public static IndexedTarDataset open(String pattern, MissingIndex missing) {
        return open(ShardPatterns.expand(pattern), missing);
    }

    private static ShardIndex indexOf(Path shard, MemorySegment map, MissingIndex missing) {
        Path sidecar = ShardIndex.sidecar(shard);
        if (Files.exists(sidecar)) {
            return ShardIndex.read(sidecar, map.byteSize());
        }
        if (missing == MissingIndex.FAIL) {
            throw new IllegalStateException("shard " + shard + " has no index " + sidecar.getFileName()
                    + "; build it with `stoker index " + shard + "`");
        }
        ShardIndex idx = ShardIndex.scan(TarReader.over(shard.toString(), map), map.byteSize());
        if (missing == MissingIndex.BUILD_AND_SAVE) {
            idx.write(sidecar);
        }
        return idx;
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
        if (closed.get()) {
            throw new IllegalStateException(name() + " is closed");
        }
        int s = shardOf(index);
        try {
            TarSample sample = indices[s].sample((int) (index - offsets.start(s)), maps[s], names[s]);
            MapFaults.deliverPending();
            return sample;
        } catch (InternalError e) { // the shard was cut short under its map (read: the members' headers)
            throw MapFaults.changed(e, ShardSources.localPath(names[s]), maps[s].byteSize(), "sample " + index);
        }
    }

    /** The shard that holds global sample {@code index}. */
    public int shardOf(long index) {
        return offsets.shardOf(index);
    }

    /** The number of shards. */
    public int shardCount() {
        return indices.length;
    }

    /** The index of shard {@code s}. */
    public ShardIndex index(int s) {
        return indices[s];
    }

    @Override
    public String name() {
        return "indexed tar shards (" + names.length + (names.length == 0 ? "" : ", first " + names[0]) + ")";
    }

    /** Unmaps the shards: samples taken from this dataset must not be read after this. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            arena.close();
        }
    }

    /** Writes the sidecar index of each shard that lacks one; returns the ones written. */
    public static List<Path> indexAll(List<String> shards, boolean overwrite) {
        List<Path> written = new ArrayList<>();
        for (String shard : shards) {
            Path path = ShardSources.localPath(shard);
            Path sidecar = ShardIndex.sidecar(path);
            if (overwrite || !Files.exists(sidecar)) {
                ShardIndex.scan(path).write(sidecar);
                written.add(sidecar);
            }
        }
        return written;
    }

}
