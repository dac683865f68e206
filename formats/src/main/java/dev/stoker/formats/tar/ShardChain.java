package dev.stoker.formats.tar;

import dev.stoker.data.SampleStream;
import java.lang.foreign.Arena;
import java.net.http.HttpClient;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The samples of several shards, one shard after the other, each opened only when the previous one
 * is done, so that one worker holds one shard (one map or one connection) open at a time.
 */
public final class ShardChain implements SampleStream<TarSample> {
    private final List<String> shards;
    private final HttpClient http;
    private final int readAhead;
    private final boolean skipCorrupt;
    private int nextShard;
    private TarReader reader;
    private SampleGrouper groups;
    private TarSample next;
    private int skipped;

    ShardChain(List<String> shards, HttpClient http, int readAhead, boolean skipCorrupt) {
        this.shards = shards;
        this.http = http;
        this.readAhead = readAhead;
        this.skipCorrupt = skipCorrupt;
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
                    reader = ShardSources.open(shard, Arena.ofAuto(), http, readAhead);
                } catch (TarException e) {
                    if (!skipCorrupt) {
                        throw e;
                    }
                    skipped++;
                    continue;
                }
                groups = new SampleGrouper(reader);
            }
            try {
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
