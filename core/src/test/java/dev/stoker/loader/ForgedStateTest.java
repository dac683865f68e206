package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.CountingDataset;
import dev.stoker.data.ReshardableStreamingDataset;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A saved state is untrusted: real states, mutated at random (nulls, negatives, huge values, short
 * and long arrays, sizes that disagree, states of another dataset or layout), are either refused
 * with an {@link IllegalArgumentException} (when made, as a JSON reader makes them, or at
 * {@code restore}) or the loader then runs to the end of the epoch correctly: never a
 * NullPointerException, an ArrayIndexOutOfBoundsException or any other failure later.
 */
class ForgedStateTest {
    private static final int ROUNDS = 400;
    private static final long SIZE = 37;
    private static final int BATCH = 4;

    @AfterEach
    void noWorkerLeft() {
        assertThat(WorkerThreads.alive()).isEmpty();
    }

    /** What happened to one forged state. */
    private enum Outcome { REFUSED_WHEN_MADE, REFUSED_AT_RESTORE, RAN }

    // ---- map-style ----

    private static DataLoader<Long> mapLoader(long size, int workers, boolean inOrder) {
        return DataLoader.builder(new CountingDataset(size)).batchSize(BATCH).shuffle(true).seed(7)
                .numWorkers(workers).inOrder(inOrder).build();
    }

    /** A real state: some batches of some epoch taken, out of order with workers so that some come ahead. */
    static LoaderState realMapState(Random r, long size) {
        try (DataLoader<Long> loader = mapLoader(size, r.nextBoolean() ? 0 : 3, r.nextBoolean())) {
            loader.setEpoch(r.nextInt(3));
            BatchIterator it = loader.iterator();
            int take = r.nextInt((int) loader.batchesPerEpoch() + 2);
            for (int i = 0; i < take && it.hasNext(); i++) {
                it.next().close();
            }
            return loader.state();
        }
    }

    /** "k:[indices]" for every batch of epoch {@code epoch}, by position. */
    private static List<String> wholeEpoch(long epoch) {
        try (DataLoader<Long> loader = mapLoader(SIZE, 0, true)) {
            loader.setEpoch(epoch);
            List<String> out = new ArrayList<>();
            for (Batch b : loader) {
                try (b) {
                    out.add(b.index() + ":" + Arrays.toString(b.indices()));
                }
            }
            return out;
        }
    }

    @Test
    void forgedMapStatesAreRefusedOrRunCorrectly() {
        int[] outcomes = new int[Outcome.values().length];
        for (int round = 0; round < ROUNDS; round++) {
            Random r = new Random(round);
            LoaderState real = realMapState(r, r.nextInt(8) == 0 ? SIZE + 4 : SIZE);
            String at = "round " + round + " from " + real + ": ";
            LoaderState forged;
            try {
                forged = mutateMap(r, real);
            } catch (IllegalArgumentException refused) {
                outcomes[Outcome.REFUSED_WHEN_MADE.ordinal()]++;
                continue;
            } catch (RuntimeException e) {
                throw new AssertionError(at + "making the forged state threw " + e, e);
            }
            outcomes[runMap(forged, at, r.nextBoolean() ? 0 : 2).ordinal()]++;
        }
        assertThat(outcomes).as("outcomes").doesNotContain(0); // each outcome is met: the mutations reach every check
    }

    private static Outcome runMap(LoaderState forged, String at, int workers) {
        try (DataLoader<Long> loader = mapLoader(SIZE, workers, true)) {
            try {
                loader.restore(forged);
            } catch (IllegalArgumentException refused) {
                return Outcome.REFUSED_AT_RESTORE;
            } catch (RuntimeException e) {
                throw new AssertionError(at + "restoring " + forged + " threw " + e, e);
            }
            List<String> seen = new ArrayList<>();
            try {
                for (Batch b : loader) {
                    try (b) {
                        seen.add(b.index() + ":" + Arrays.toString(b.indices()));
                    }
                }
                loader.state(); // and where it stands can still be said
            } catch (RuntimeException e) {
                throw new AssertionError(at + "restored " + forged + ", then the pass threw " + e, e);
            }
            // the rest of the epoch: every batch from nextBatch on but those delivered ahead, in order
            Set<Long> ahead = new HashSet<>();
            for (long k : forged.deliveredAhead()) {
                ahead.add(k);
            }
            List<String> expected = new ArrayList<>();
            List<String> all = wholeEpoch(forged.epoch());
            for (int k = (int) forged.nextBatch(); k < all.size(); k++) {
                if (!ahead.contains((long) k)) {
                    expected.add(all.get(k));
                }
            }
            assertThat(seen).as(at + "after restoring " + forged).isEqualTo(expected);
            assertThat(loader.pool().lentBytes()).isZero();
            return Outcome.RAN;
        }
    }

    private static LoaderState mutateMap(Random r, LoaderState s) {
        long epoch = s.epoch();
        long next = s.nextBatch();
        long[] ahead = s.deliveredAhead();
        long seed = s.seed();
        long size = s.datasetSize();
        long per = s.batchesPerEpoch();
        StreamState streams = null;
        int rank = s.rank();
        int world = s.worldSize();
        switch (r.nextInt(10)) {
            case 0 -> epoch = pick(r, -1, Long.MIN_VALUE, Long.MAX_VALUE, LoaderState.MAX_COUNT,
                    LoaderState.MAX_COUNT + 1, epoch + 1, r.nextLong());
            case 1 -> next = pick(r, -1, per, per + 1, Long.MAX_VALUE, r.nextInt((int) per + 1), next + 1);
            case 2 -> ahead = pickArray(r, null, new long[0], new long[] {next}, new long[] {per},
                    new long[] {next + 2, next + 1}, new long[] {next + 1, next + 1}, new long[] {per - 1},
                    randomArray(r, 1 + r.nextInt(20), per + 2), new long[] {Long.MAX_VALUE}, new long[] {-1});
            case 3 -> seed = r.nextLong();
            case 4 -> size = pick(r, -1, -5, 0, size + 1, Long.MAX_VALUE);
            case 5 -> per = pick(r, -1, 0, per - 1, per + 1, Long.MAX_VALUE);
            case 6 -> {
                streams = StreamState.start(0, 1, BATCH, 1, null);
                next = 0;
                ahead = new long[0];
                size = -1;
                per = -1;
                rank = 0;
                world = 0;
            }
            case 7 -> { // several at once
                next = r.nextInt((int) per + 2);
                ahead = randomArray(r, r.nextInt(4), per);
                Arrays.sort(ahead);
            }
            case 8 -> { // another rank or world, a forged one, or none recorded (a state from before they were)
                int[][] pairs = {{0, 0}, {0, 2}, {1, 2}, {1, 1}, {-1, 1}, {0, -1}, {2, 0}, {Integer.MAX_VALUE, 1}};
                int[] pair = pairs[r.nextInt(pairs.length)];
                rank = pair[0];
                world = pair[1];
            }
            default -> { } // the real state, unchanged
        }
        return new LoaderState(epoch, next, ahead, seed, size, per, streams, rank, world);
    }

    // ---- streaming, resharded ----

    /**
     * Shards of {@code COUNTS[s]} samples (sample {@code s * 100 + j}), dealt to the job's global
     * workers in turn; its cursor holds, per shard, the first sample left, or -1 when none is.
     */
    private static final class Shards implements ReshardableStreamingDataset<Long> {
        static final long[] COUNTS = {5, 7, 3, 6, 4, 9};

        @Override
        public SampleStream<Long> open(WorkerContext context) {
            return open(context, null);
        }

        @Override
        public SampleStream<Long> open(WorkerContext context, long[] cursor) {
            List<Long> mine = new ArrayList<>();
            int piece = 0;
            for (int s = 0; s < COUNTS.length; s++) {
                long from = cursor == null ? 0 : cursor[s];
                if (from == -1) {
                    continue;
                }
                if (piece++ % context.globalWorkers() == context.globalWorkerId()) {
                    for (long j = from; j < COUNTS[s]; j++) {
                        mine.add(s * 100 + j);
                    }
                }
            }
            return SampleStream.of(mine.iterator());
        }

        @Override
        public long[] cursor(long seed, long epoch, long[] start, long[] positions, boolean[] ended) {
            long[] cursor = new long[COUNTS.length];
            Arrays.fill(cursor, -1);
            List<int[]> pieces = new ArrayList<>(); // {shard, from}
            for (int s = 0; s < COUNTS.length; s++) {
                long from = start == null ? 0 : start[s];
                if (from != -1) {
                    pieces.add(new int[] {s, (int) from});
                }
            }
            for (int g = 0; g < positions.length; g++) {
                long left = positions[g];
                for (int i = g; i < pieces.size(); i += positions.length) {
                    int s = pieces.get(i)[0];
                    long from = pieces.get(i)[1];
                    long taken = ended[g] ? COUNTS[s] - from : Math.min(left, COUNTS[s] - from);
                    left -= Math.min(left, taken);
                    cursor[s] = from + taken == COUNTS[s] ? -1 : from + taken;
                }
                if (left > 0) {
                    throw new IllegalStateException("stream " + g + " delivered more than it held");
                }
            }
            return cursor;
        }

        @Override
        public void checkCursor(long[] cursor) {
            if (cursor.length != COUNTS.length) {
                throw new IllegalArgumentException("a cursor of " + cursor.length + " shards for " + COUNTS.length);
            }
            for (int s = 0; s < cursor.length; s++) {
                if (cursor[s] < -1 || cursor[s] >= COUNTS[s]) {
                    throw new IllegalArgumentException("shard " + s + " has " + COUNTS[s] + " samples, not a sample "
                            + cursor[s]);
                }
            }
        }
    }

    private static DataLoader<Long> streamLoader(int workers) {
        return DataLoader.builder(new Shards()).batchSize(3).seed(11).numWorkers(workers).build();
    }

    /** A real state, from 1 or 2 ranks (merged), maybe already resharded once so that it holds a cursor. */
    static LoaderState realStreamState(Random r) {
        int workers = r.nextInt(3);
        LoaderState s;
        try (DataLoader<Long> loader = streamLoader(workers)) {
            BatchIterator it = loader.iterator();
            for (int i = r.nextInt(6); i > 0 && it.hasNext(); i--) {
                it.next().close();
            }
            s = loader.state();
        }
        if (r.nextBoolean()) { // go on from it with another layout, and stop again: a state with a cursor
            try (DataLoader<Long> loader = streamLoader(workers == 2 ? 1 : 2)) {
                loader.restore(s);
                BatchIterator it = loader.iterator();
                for (int i = r.nextInt(3); i > 0 && it.hasNext(); i--) {
                    it.next().close();
                }
                s = loader.state();
            }
        }
        return s;
    }

    @Test
    void forgedStreamStatesAreRefusedOrRunToTheEnd() {
        int[] outcomes = new int[Outcome.values().length];
        for (int round = 0; round < ROUNDS; round++) {
            Random r = new Random(round);
            LoaderState real = realStreamState(r);
            String at = "round " + round + " from " + real + ": ";
            LoaderState forged;
            try {
                forged = mutateStream(r, real);
            } catch (IllegalArgumentException refused) {
                outcomes[Outcome.REFUSED_WHEN_MADE.ordinal()]++;
                continue;
            } catch (RuntimeException e) {
                throw new AssertionError(at + "making the forged state threw " + e, e);
            }
            outcomes[runStream(forged, at, r.nextInt(3)).ordinal()]++;
        }
        assertThat(outcomes).as("outcomes").doesNotContain(0);
    }

    private static Outcome runStream(LoaderState forged, String at, int workers) {
        try (DataLoader<Long> loader = streamLoader(workers)) {
            try {
                loader.restore(forged);
            } catch (IllegalArgumentException refused) {
                return Outcome.REFUSED_AT_RESTORE;
            } catch (RuntimeException e) {
                throw new AssertionError(at + "restoring " + forged + " threw " + e, e);
            }
            Set<Long> seen = new HashSet<>();
            try {
                for (Batch b : loader) {
                    try (b) {
                        for (long v : b.tensor().toLongArray()) {
                            assertThat(seen.add(v)).as(at + "sample " + v + " came twice").isTrue();
                            assertThat(v % 100).as(at + "sample " + v).isLessThan(Shards.COUNTS[(int) (v / 100)]);
                        }
                    }
                }
                loader.state();
            } catch (RuntimeException e) {
                throw new AssertionError(at + "restored " + forged + ", then the pass threw " + e, e);
            }
            assertThat(loader.pool().lentBytes()).isZero();
            return Outcome.RAN;
        }
    }

    private static LoaderState mutateStream(Random r, LoaderState state) {
        StreamState s = state.streams();
        int rank = s.rank();
        int world = s.worldSize();
        int batch = s.batchSize();
        int turn = s.turn();
        long delivered = s.delivered();
        long[] samples = s.samples();
        long[] batches = s.batches();
        boolean[] ended = s.ended();
        long[] start = s.start();
        long epoch = state.epoch();
        long seed = state.seed();
        int n = samples.length;
        Supplier<long[]> anyLongs = () -> pickArray(r, null, new long[0], new long[n + 1], new long[Math.max(0, n - 1)],
                randomArray(r, n, 40), new long[] {Long.MAX_VALUE}, filled(n, -1), filled(n, Long.MAX_VALUE),
                filled(n, LoaderState.MAX_COUNT + 1));
        switch (r.nextInt(13)) {
            case 0 -> samples = anyLongs.get();
            case 1 -> batches = anyLongs.get();
            case 2 -> ended = r.nextBoolean() ? null : new boolean[r.nextInt(4)];
            case 3 -> turn = (int) pick(r, -1, n, Integer.MAX_VALUE, r.nextInt(n));
            case 4 -> delivered = pick(r, -1, delivered + 1, Long.MAX_VALUE, 0);
            case 5 -> {
                rank = (int) pick(r, -1, 1, 5);
                world = (int) pick(r, 0, 1, 2, 3);
            }
            case 6 -> batch = (int) pick(r, 0, -1, 2, 4, Integer.MAX_VALUE);
            case 7 -> start = pickArray(r, null, new long[0], new long[3], filled(Shards.COUNTS.length, -2),
                    filled(Shards.COUNTS.length, 50), filled(Shards.COUNTS.length + 1, 0), randomArray(r, 6, 9),
                    filled(Shards.COUNTS.length, Long.MAX_VALUE));
            case 8 -> epoch = pick(r, -1, Long.MAX_VALUE, LoaderState.MAX_COUNT + 1, epoch + 1);
            case 9 -> seed = r.nextLong();
            case 10 -> { // several positions moved
                for (int w = 0; w < n; w++) {
                    samples[w] += r.nextInt(30);
                    batches[w] = r.nextInt((int) Math.min(samples[w], 20) + 1);
                    ended[w] = r.nextBoolean();
                }
                long sum = Arrays.stream(batches).sum();
                delivered = sum == 0 ? 0 : r.nextLong(sum + 1);
            }
            case 11 -> { // a map-style state's fields on a streaming state
                return new LoaderState(epoch, delivered, new long[] {1}, seed, 37, 10, s);
            }
            default -> { } // unchanged
        }
        StreamState forged = new StreamState(rank, world, batch, turn, delivered, samples, batches, ended, start);
        return new LoaderState(epoch, forged.delivered(), new long[0], seed, -1, -1, forged);
    }

    // ---- helpers ----

    private static long pick(Random r, long... choices) {
        return choices[r.nextInt(choices.length)];
    }

    private static long[] pickArray(Random r, long[]... choices) {
        long[] a = choices[r.nextInt(choices.length)];
        return a == null ? null : a.clone();
    }

    private static long[] randomArray(Random r, int length, long bound) {
        long[] a = new long[length];
        for (int i = 0; i < length; i++) {
            a[i] = r.nextLong(-2, bound);
        }
        return a;
    }

    private static long[] filled(int length, long value) {
        long[] a = new long[length];
        Arrays.fill(a, value);
        return a;
    }
}
