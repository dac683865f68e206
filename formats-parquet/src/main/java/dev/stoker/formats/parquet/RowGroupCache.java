package dev.stoker.formats.parquet;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.IntFunction;

/**
 * The decoded row groups each worker thread keeps, least recently used first out: a row group is
 * decoded once and then serves every row a worker asks of it while it stays cached. Per thread, so
 * workers never wait on each other; the memory is at most workers x ({@code capacity} + {@value #AHEAD})
 * decoded row groups (each bounded by {@code maxRowGroupBytes}): the more are the read-aheads.
 *
 * <p>Read-ahead: when a thread misses row group {@code g} right after missing {@code g - 1} (a
 * sequential order, or the first group), row groups {@code g + 1} to {@code g + }{@value #AHEAD}
 * start decoding in the background while {@code g} is used, as Hardwood's own whole-file reader
 * decodes on while the current batch is read. Without it a reader opened per row group would wait
 * for every decode; with one group ahead, Hardwood's decode thread still idled while each new
 * group's reader started (its pages read, its first batch assembled), so two are decoded ahead and
 * the decode thread always has the next group's work. A shuffled order of row groups rarely misses
 * two neighbours in a row, so it rarely decodes ahead.
 *
 * <p>A row group whose decode was refused ({@link ParquetFormatException}) is remembered too, the
 * last one per thread: its other rows are refused with the same message at once instead of each
 * decoding it again (a loader that skips bad samples asked a damaged row group of 131,072 rows for
 * 131,072 decodes).
 */
final class RowGroupCache {
    /** A row group whose decode was refused, and why. */
    private record Refusal(int group, ParquetFormatException why) {}

    /** Reads ahead: decodes a row group in the background. */
    interface Ahead {
        CompletableFuture<RowGroupData> start(int group);
    }

    /** Row groups decoded ahead of a sequential reader. */
    static final int AHEAD = 2;

    private final int capacity;
    private final ThreadLocal<State> states;

    private static final class State {
        final LinkedHashMap<Integer, RowGroupData> groups;
        int lastMissed = -1;
        /** The read-aheads in flight or done and not yet taken, by row group. */
        final Map<Integer, CompletableFuture<RowGroupData>> aheads = new HashMap<>();
        /** The last row group whose decode was refused, and why; null for none. */
        Refusal refused;

        State(int capacity) {
            groups = new LinkedHashMap<>(4, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Integer, RowGroupData> eldest) {
                    return size() > capacity;
                }
            };
        }
    }

    RowGroupCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("cache at least 1 row group per worker, not " + capacity);
        }
        this.capacity = capacity;
        this.states = ThreadLocal.withInitial(() -> new State(this.capacity));
    }

    /** Row group {@code group}, from this thread's cache or decoded by {@code decode} now. */
    RowGroupData get(int group, IntFunction<RowGroupData> decode) {
        return get(group, decode, null, 0);
    }

    /**
     * Row group {@code group} of {@code groups}, from this thread's cache, its read-ahead or decoded
     * by {@code decode} now; on a sequential miss, starts reading the next one ahead ({@code ahead},
     * null for none).
     */
    RowGroupData get(int group, IntFunction<RowGroupData> decode, Ahead ahead, int groups) {
        State mine = states.get();
        RowGroupData d = mine.groups.get(group);
        if (d != null) {
            return d;
        }
        if (mine.refused != null && mine.refused.group() == group) {
            // a fresh exception, so each refusal has its own stack; the message and cause are the decode's
            throw new ParquetFormatException(mine.refused.why().getMessage(), mine.refused.why());
        }
        try {
            CompletableFuture<RowGroupData> f = mine.aheads.remove(group);
            d = f != null ? join(f) : decode.apply(group);
        } catch (ParquetFormatException e) {
            mine.refused = new Refusal(group, e);
            throw e;
        }
        mine.groups.put(group, d);
        boolean sequential = group == mine.lastMissed + 1;
        mine.lastMissed = group;
        if (ahead != null && sequential) {
            // a read-ahead outside the window (the order jumped) is dropped: it was a decode's worth of work
            mine.aheads.keySet().removeIf(g -> g <= group || g > group + AHEAD);
            for (int g = group + 1; g <= group + AHEAD && g < groups; g++) {
                if (!mine.aheads.containsKey(g) && !mine.groups.containsKey(g)) {
                    mine.aheads.put(g, ahead.start(g));
                }
            }
        }
        return d;
    }

    static RowGroupData join(CompletableFuture<RowGroupData> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            // the read-ahead's own failure, raised where the row group is needed, as a decode here would raise it
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    int capacity() {
        return capacity;
    }

    /** Drops this thread's row groups and read-ahead. */
    void clear() {
        states.remove();
    }
}
