package dev.stoker.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderState;
import dev.stoker.loader.ResumeRuns;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class MixedStreamingDatasetTest {
    private static final WorkerContext WORKER = new WorkerContext(0, 1, 0, 1, 3, 42);

    /**
     * Source {@code tag}: samples {@code tag * 1_000_000 + i} for i below {@code length}, counting
     * how many it handed out and how many it skipped, and whether it was closed.
     */
    private static final class Counted implements StreamingDataset<Long> {
        final long tag;
        final long length;
        final AtomicInteger read = new AtomicInteger();
        final AtomicInteger skipped = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();

        Counted(long tag, long length) {
            this.tag = tag;
            this.length = length;
        }

        @Override
        public SampleStream<Long> open(WorkerContext context) {
            return new SampleStream<>() {
                long i;

                public boolean hasNext() {
                    return i < length;
                }

                public Long next() {
                    read.incrementAndGet();
                    return tag * 1_000_000 + i++;
                }

                public long skip(long n) {
                    long moved = Math.min(n, length - i);
                    i += moved;
                    skipped.addAndGet((int) moved);
                    return moved;
                }

                public void close() {
                    closed.incrementAndGet();
                }
            };
        }
    }

    private static List<Long> drain(SampleStream<Long> s) {
        List<Long> out = new ArrayList<>();
        while (s.hasNext()) {
            out.add(s.next());
        }
        return out;
    }

    private static long[] perSource(List<Long> samples, int sources) {
        long[] n = new long[sources];
        for (long v : samples) {
            n[(int) (v / 1_000_000)]++;
        }
        return n;
    }

    @Test
    void samplesComeInTheWeightsProportionsAndEachSourceInItsOwnOrder() {
        MixedStreamingDataset<Long> mix = MixedStreamingDataset.of(
                List.of(new Counted(0, 100_000), new Counted(1, 100_000), new Counted(2, 100_000)), 0.6, 0.3, 0.1);
        List<Long> first = new ArrayList<>();
        try (SampleStream<Long> s = mix.open(WORKER)) {
            for (int i = 0; i < 20_000; i++) {
                first.add(s.next());
            }
        }
        long[] n = perSource(first, 3);
        // Binomial sd at most 70: 6 sd of slack.
        assertThat(n[0]).isBetween(12_000L - 420, 12_000L + 420);
        assertThat(n[1]).isBetween(6_000L - 420, 6_000L + 420);
        assertThat(n[2]).isBetween(2_000L - 420, 2_000L + 420);
        long[] nextOf = new long[3];
        for (long v : first) {
            int k = (int) (v / 1_000_000);
            assertThat(v % 1_000_000).isEqualTo(nextOf[k]++);
        }
    }

    @Test
    void byDefaultTheMixtureEndsAtTheFirstDrawOfAnEndedSource() {
        Counted shortOne = new Counted(0, 50);
        Counted longOne = new Counted(1, 10_000);
        MixedStreamingDataset<Long> mix = MixedStreamingDataset.of(List.of(shortOne, longOne), 1, 1);
        List<Long> all;
        try (SampleStream<Long> s = mix.open(WORKER)) {
            all = drain(s);
            assertThatThrownBy(s::next).hasMessageContaining("ended");
        }
        assertThat(perSource(all, 2)[0]).isEqualTo(50);
        assertThat(all.size()).isBetween(50, 300);
        assertThat(all.getLast() / 1_000_000).as("the short source ended at its own draw").isIn(0L, 1L);
        assertThat(shortOne.closed.get()).isEqualTo(1);
        assertThat(longOne.closed.get()).isEqualTo(1);
    }

    @Test
    void untilAllEndReadsEverySampleOfEverySourceWithAWeight() {
        Counted zero = new Counted(2, 5);
        MixedStreamingDataset<Long> mix = MixedStreamingDataset.of(
                List.of(new Counted(0, 37), new Counted(1, 500), zero), 5, 1, 0)
                .until(MixedStreamingDataset.Until.ALL_END);
        List<Long> all;
        try (SampleStream<Long> s = mix.open(WORKER)) {
            all = drain(s);
        }
        assertThat(perSource(all, 3)).containsExactly(37, 500, 0);
        assertThat(zero.closed.get()).as("a source of weight 0 is never opened").isZero();
    }

    @Test
    void theDrawsArePureFunctionsOfSeedEpochAndWorker() {
        MixedStreamingDataset<Long> mix = MixedStreamingDataset.of(List.of(new Counted(0, 1000), new Counted(1, 1000)),
                1, 1);
        List<Long> a = drain(mix.open(WORKER));
        List<Long> b = drain(mix.open(WORKER));
        List<Long> otherEpoch = drain(mix.open(new WorkerContext(0, 1, 0, 1, 4, 42)));
        List<Long> otherWorker = drain(mix.open(new WorkerContext(1, 2, 0, 1, 3, 42)));
        assertThat(a).isEqualTo(b);
        assertThat(a).isNotEqualTo(otherEpoch);
        assertThat(a).isNotEqualTo(otherWorker);
    }

    @Test
    void skipPutsTheStreamWhereReadingWouldHaveAndReadsNoSample() {
        Random random = new Random(1124);
        for (int trial = 0; trial < 300; trial++) {
            int sources = 1 + random.nextInt(4);
            List<Counted> parts = new ArrayList<>();
            double[] weights = new double[sources];
            for (int k = 0; k < sources; k++) {
                parts.add(new Counted(k, random.nextInt(60)));
                weights[k] = random.nextInt(5) == 0 ? 0 : 0.1 + random.nextDouble();
            }
            weights[random.nextInt(sources)] = 1;
            MixedStreamingDataset.Until until = random.nextBoolean()
                    ? MixedStreamingDataset.Until.FIRST_ENDS : MixedStreamingDataset.Until.ALL_END;
            MixedStreamingDataset<Long> mix = MixedStreamingDataset.of(parts, weights).until(until);
            WorkerContext ctx = new WorkerContext(random.nextInt(3), 3, 0, 1, random.nextInt(5), random.nextLong());
            List<Long> whole = drain(mix.open(ctx));
            long n = random.nextInt(whole.size() + 20);
            int readBefore = parts.stream().mapToInt(p -> p.read.get()).sum();
            try (SampleStream<Long> s = mix.open(ctx)) {
                boolean peek = random.nextBoolean() && s.hasNext(); // a draw checked before the skip
                long moved = s.skip(n);
                String what = "trial " + trial + " " + until + " skip " + n + " peek " + peek;
                assertThat(moved).as(what).isEqualTo(Math.min(n, whole.size()));
                assertThat(parts.stream().mapToInt(p -> p.read.get()).sum()).as(what).isEqualTo(readBefore);
                assertThat(drain(s)).as(what).isEqualTo(whole.subList((int) moved, whole.size()));
            }
        }
    }

    @Test
    void resumingThroughTheLoaderGivesTheBatchesThatWouldHaveFollowed() {
        StreamingDataset<Long> evens = ctx -> SampleStream.of(LongStream.range(0, 400).map(i -> 2 * i)
                .filter(i -> (i / 2) % ctx.globalWorkers() == ctx.globalWorkerId()).boxed().iterator());
        StreamingDataset<Long> odds = ctx -> SampleStream.of(LongStream.range(0, 300).map(i -> 2 * i + 1)
                .filter(i -> (i / 2) % ctx.globalWorkers() == ctx.globalWorkerId()).boxed().iterator());
        MixedStreamingDataset<Long> mix = MixedStreamingDataset.of(List.of(evens, odds), 2, 1);
        Function<Batch, String> describe =
                b -> Arrays.toString(b.tensor().toLongArray());
        List<String> expected;
        try (var loader = DataLoader.builder(mix).batchSize(16).numWorkers(2).seed(5).build()) {
            expected = ResumeRuns.uninterrupted(loader, 2, describe);
        }
        assertThat(expected).isNotEmpty();
        for (int stopAfter : new int[] {0, 3, expected.size() / 2, expected.size() - 1}) {
            List<String> seen = new ArrayList<>();
            LoaderState state;
            try (var loader = DataLoader.builder(mix).batchSize(16).numWorkers(2).seed(5).build()) {
                state = ResumeRuns.stopAfter(loader, 2, stopAfter, describe, seen);
            }
            try (var loader = DataLoader.builder(mix).batchSize(16).numWorkers(2).seed(5).build()) {
                ResumeRuns.resume(loader, state, 2, describe, seen, () -> {});
            }
            assertThat(seen).as("stop after %d", stopAfter).isEqualTo(expected);
        }
    }

    @Test
    void badWeightsAreRefusedWithTheReason() {
        List<StreamingDataset<Long>> two = List.of(new Counted(0, 1), new Counted(1, 1));
        assertThatThrownBy(() -> MixedStreamingDataset.of(two, 1)).hasMessageContaining("2 sources but 1 weights");
        assertThatThrownBy(() -> MixedStreamingDataset.of(two, 1, -1)).hasMessageContaining("weight 1");
        assertThatThrownBy(() -> MixedStreamingDataset.of(two, 0, 0)).hasMessageContaining("add up to 0");
        assertThatThrownBy(() -> MixedStreamingDataset.of(List.<StreamingDataset<Long>>of()))
                .hasMessageContaining("at least one source");
    }

    @Test
    void aSourceThatFailsToOpenClosesTheOnesOpenedBefore() {
        Counted first = new Counted(0, 10);
        StreamingDataset<Long> broken = ctx -> {
            throw new IllegalStateException("shard list unreachable");
        };
        MixedStreamingDataset<Long> mix = MixedStreamingDataset.of(List.of(first, broken), 1, 1);
        assertThatThrownBy(() -> mix.open(WORKER)).hasMessageContaining("unreachable");
        assertThat(first.closed.get()).isEqualTo(1);
    }
}
