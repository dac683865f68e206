package dev.stoker.formats.tar;

import dev.stoker.data.SampleStream;
import java.lang.foreign.Arena;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The samples of several shards, one shard after the other, each opened only when the previous one
 * is done, so that one worker holds one shard (one map or one connection) open at a time. A shard
 * may be read from a given sample on (a resharded epoch's remaining piece of it), its earlier
 * samples passed over header by header.
 */
public final class ShardChain implements SampleStream<TarSample> {
    private final List<String> shards;
    private final ShardOpener opener;
    private final boolean skipCorrupt;
    private final long[] offsets; // the first sample read of each shard; null: 0 for all
    private int nextShard;
    private long pendingOffset; // samples of the open shard still to pass over
    private TarReader reader;
    private SampleGrouper groups;
    private TarSample next;
    private int skipped;

    ShardChain(List<String> shards, ShardOpener opener, boolean skipCorrupt) {
        this(shards, null, opener, skipCorrupt);
    }

    /** A chain that reads shard {@code i} from its sample {@code offsets[i]} on. */
    ShardChain(List<String> shards, long[] offsets, ShardOpener opener, boolean skipCorrupt) {
        if (offsets != null && offsets.length != shards.size()) {
            throw new IllegalArgumentException(offsets.length + " offsets for " + shards.size() + " shards");
        }
        this.shards = shards;
        this.offsets = offsets;
        this.opener = opener;
        this.skipCorrupt = skipCorrupt;
    }

    private long offsetOf(int shard) {
        return offsets == null ? 0 : offsets[shard];
    }

    @Override
    public boolean hasNext() {
        while (next == null) {
            if (groups == null) {
                if (nextShard == shards.size()) {
                    return false;
                }
                String shard = shards.get(nextShard++);
                // auto arena: samples may outlive this shard (shuffle buffer, batches in flight)
                try {
                    reader = opener.open(shard, Arena.ofAuto());
                } catch (TarException e) {
                    if (!skipCorrupt) {
                        throw e;
                    }
                    skipped++;
                    continue;
                }
                groups = new SampleGrouper(reader);
                pendingOffset = offsetOf(nextShard - 1);
            }
            try {
                for (; pendingOffset > 0 && groups.hasNext(); pendingOffset--) {
                    groups.next(); // before this worker's piece of the shard
                }
                if (groups.hasNext()) {
                    next = TarSample.of(groups.next(), reader.name());
                } else {
                    closeShard();
                }
            } catch (TarException e) {
                closeShard();
                if (!skipCorrupt) {
                    throw e;
                }
                skipped++;
            }
        }
        return true;
    }

    @Override
    public TarSample next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        TarSample s = next;
        next = null;
        return s;
    }

    /**
     * Moves past {@code n} samples, for a resumed loader. A local shard with a valid {@code .idx}
     * sidecar that lies wholly inside the skipped samples is passed over without opening it; the
     * shard where the skip ends is opened and walked member header by member header (a local shard
     * is memory-mapped, so the samples' bytes are not read). A shard without a sidecar, or one
     * streamed over HTTP, is walked the same way.
     */
    @Override
    public long skip(long n) {
        long done = 0;
        if (n > 0 && next != null) {
            next = null;
            done++;
        }
        while (done < n) {
            if (groups == null && nextShard < shards.size()) {
                long count = indexedSampleCount(shards.get(nextShard)) - offsetOf(nextShard);
                if (count >= 0 && count <= n - done) {
                    nextShard++;
                    done += count;
                    continue;
                }
            }
            if (!hasNext()) {
                break;
            }
            next = null;
            done++;
        }
        return done;
    }

    /** The samples in a local shard as its sidecar says, or -1 when it has none (or a stale or bad one, or is remote). */
    static int indexedSampleCount(String shard) {
        if (ShardSources.isStreamed(shard) || ShardSources.isCompressedLocal(shard)) {
            return -1;
        }
        try {
            Path path = ShardSources.localPath(shard);
            Path sidecar = ShardIndex.sidecar(path);
            if (!Files.isRegularFile(sidecar)) {
                return -1;
            }
            return ShardIndex.read(sidecar, Files.size(path)).sampleCount();
        } catch (IOException | RuntimeException e) {
            return -1; // walked instead: the walk reports what is wrong with the shard, if anything
        }
    }

    /** Shards given up on (corrupt, truncated, unreachable) under the skip policy. */
    public int skipped() {
        return skipped;
    }

    private void closeShard() {
        if (reader != null) {
            reader.close();
        }
        reader = null;
        groups = null;
    }

    @Override
    public void close() {
        closeShard();
        nextShard = shards.size();
    }
}
