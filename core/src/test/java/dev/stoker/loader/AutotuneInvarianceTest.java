package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.Dataset;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The property behind autotune: under any tuning decisions (injected, seeded), a loader delivers
 * the batches of the fixed configuration with as many workers as it has lanes, byte for byte, in
 * the same order, with the same random draws and the same state after every batch; and a state
 * taken mid-epoch under one list of decisions resumes under another to the same batches. In the
 * I/O mode (map-style trials, some of them) the decisions also set the samples fetched at once,
 * which changes no batch either: each fetch draws from a generator of its own index.
 */
class AutotuneInvarianceTest {
    private static final int TRIALS = 12;
    private static final int EPOCHS = 2;

    @AfterEach
    void noWorkerLeft() {
        assertThat(WorkerThreads.alive()).isEmpty();
    }

    /** Sample i: its index and a draw from the batch's generator (a random augmentation). */
    private record Draws(long size) implements Dataset<long[]> {
        @Override
        public long[] get(long index) {
            return new long[] {index, WorkerContext.currentRandom().nextLong()};
        }
    }

    /** Each worker streams its share of 0..size-1, shuffled per epoch, with a draw per sample. */
    private record Numbers(long size) implements StreamingDataset<long[]> {
        @Override
        public SampleStream<long[]> open(WorkerContext ctx) {
            List<Long> mine = new ArrayList<>();
            for (long i = ctx.globalWorkerId(); i < size; i += ctx.globalWorkers()) {
                mine.add(i);
            }
            java.util.Collections.shuffle(mine, new java.util.Random(ctx.seed() * 31 + ctx.epoch()));
            return new SampleStream<>() {
                int next;

                @Override
                public boolean hasNext() {
                    return next < mine.size();
                }

                @Override
                public long[] next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    return new long[] {mine.get(next++), WorkerContext.currentRandom().nextLong()};
                }

                @Override
                public long skip(long n) {
                    long done = Math.min(n, mine.size() - next);
                    next += (int) done;
                    return done;
                }

                @Override
                public void close() {}
            };
        }
    }

    /** Most samples fetched at once for a trial in the I/O mode; the tuned ones get 1 to it. */
    private static final int MOST_IO = 8;

    /** {@code io}: the I/O mode (map-style only), the fixed configuration at {@value #MOST_IO} fetches at once. */
    private record Trial(boolean stream, long size, int batchSize, int lanes, boolean dropLast, long seed,
                         boolean io) {
        LoaderBuilder<long[]> builder() {
            LoaderBuilder<long[]> b = stream
                    ? DataLoader.builder(new Numbers(size)).batchSize(batchSize).dropLast(dropLast)
                    : DataLoader.builder(new Draws(size)).batchSize(batchSize).dropLast(dropLast).shuffle(true)
                            .ioConcurrency(io ? MOST_IO : 0);
            return b.seed(seed);
        }

        DataLoader<long[]> fixed(int prefetch) {
            return builder().numWorkers(lanes).prefetchFactor(prefetch).build();
        }

        DataLoader<long[]> tuned(List<TuningDecision> decisions) {
            return builder().autotune(Autotune.budget(1L << 30).maxWorkers(lanes).maxPrefetch(4).replaying(decisions))
                    .build();
        }
    }

    private static Trial trial(SplittableRandom r) {
        boolean stream = r.nextBoolean();
        return new Trial(stream, 20 + r.nextInt(100), 1 + r.nextInt(7), 1 + r.nextInt(4), r.nextBoolean(),
                r.nextLong(), !stream && r.nextBoolean());
    }

    /**
     * Random decisions at random batches (some past the end, never applied), in batch order; for a
     * map-style trial 0 workers too (the consumer's thread makes the batches), a stream's lanes all run;
     * in the I/O mode random fetches at once too (0: as they are, past the most: clamped to it).
     */
    private static List<TuningDecision> decisions(SplittableRandom r, Trial trial, long horizon) {
        int lanes = trial.lanes();
        int fewest = trial.stream() ? 1 : 0;
        List<TuningDecision> out = new ArrayList<>();
        int n = r.nextInt(12);
        long at = 0;
        for (int i = 0; i < n; i++) {
            at += r.nextLong(Math.max(1, horizon / Math.max(1, n)) + 1);
            int io = trial.io() ? r.nextInt(MOST_IO + 3) : 0;
            out.add(TuningDecision.given(at, fewest + r.nextInt(lanes + 1 - fewest), 1 + r.nextInt(4), io));
        }
        return out;
    }

    private static String describe(Batch b) {
        return b.epoch() + "/" + b.index() + "=" + Arrays.toString(b.tensor().toLongArray());
    }

    /** Every batch described, each followed by the loader's state after it. */
    private static List<String> run(DataLoader<long[]> loader) {
        List<String> out = new ArrayList<>();
        for (int e = 0; e < EPOCHS; e++) {
            for (Batch b : loader) {
                try (b) {
                    out.add(describe(b));
                    out.add(loader.state().toString());
                }
            }
        }
        return out;
    }

    @Test
    void anyDecisionsDeliverTheFixedConfigurationsBatchesAndStates() {
        SplittableRandom r = new SplittableRandom(2204);
        for (int t = 0; t < 2 * TRIALS; t++) { // twice: a quarter of them in the I/O mode
            Trial trial = trial(r);
            List<String> expected;
            try (DataLoader<long[]> fixed = trial.fixed(2)) {
                expected = run(fixed);
            }
            List<TuningDecision> given = decisions(r, trial, expected.size() / 2);
            try (DataLoader<long[]> tuned = trial.tuned(given)) {
                assertThat(run(tuned)).as("trial %d: %s under %s", t, trial, given).isEqualTo(expected);
                // each decision took effect after its batch, as given (those within the run)
                List<TuningDecision> log = tuned.tuningLog();
                long total = expected.size() / 2;
                List<Long> applied = new ArrayList<>(); // a first decision at 0 is the start; later ones at 0 wait for batch 1
                for (int i = 0; i < given.size(); i++) {
                    long b = given.get(i).batch();
                    long at = i == 0 && b == 0 ? 0L : Math.max(1, b); // a run of no batch applies none past the start
                    if (at <= total) {
                        applied.add(at);
                    }
                }
                assertThat(log.stream().skip(given.isEmpty() || given.getFirst().batch() != 0 ? 1 : 0)
                        .map(TuningDecision::batch).toList()).as("trial %d: %s under %s", t, trial, given).isEqualTo(applied);
                if (!log.isEmpty() && !given.isEmpty()
                        && Math.max(given.size() == 1 ? 0 : 1, given.getLast().batch()) <= total) {
                    TuningDecision last = given.getLast();
                    assertThat(tuned.stats().workers()).isEqualTo(last.workers());
                    assertThat(tuned.stats().prefetch()).isEqualTo(last.prefetch());
                    if (last.ioConcurrency() > 0) {
                        assertThat(tuned.stats().ioConcurrency()).isEqualTo(Math.min(MOST_IO, last.ioConcurrency()));
                    }
                }
                assertThat(log).allSatisfy(d -> assertThat(d.ioConcurrency())
                        .isBetween(trial.io() ? 1 : 0, trial.io() ? MOST_IO : 0));
            }
        }
    }

    /**
     * Workers taken back to 0 mid-pass, while lanes wait for a permit to make batches the consumer
     * then makes itself: every pass still ends (a lane waiting for a permit learns its batch is
     * gone), with the fixed configuration's batches.
     */
    @Test
    @Timeout(60)
    void aPassThatGoesDownToZeroWorkersEndsWithTheSameBatches() {
        for (int t = 0; t < 20; t++) {
            Trial trial = new Trial(false, 60 + t, 3, 3, false, t, t % 2 == 1);
            List<String> expected;
            try (DataLoader<long[]> fixed = trial.fixed(2)) {
                expected = run(fixed);
            }
            // one worker of three lanes, 4 ahead: the two other lanes hold slots and wait for a permit
            List<TuningDecision> given = List.of(TuningDecision.given(0, 1, 4), TuningDecision.given(1 + t % 3, 0, 1));
            try (DataLoader<long[]> tuned = trial.tuned(given)) {
                assertThat(run(tuned)).as("trial %d", t).isEqualTo(expected);
                assertThat(tuned.stats().workers()).isZero();
            }
        }
    }

    @Test
    void aStateTakenUnderSomeDecisionsResumesUnderOthersToTheSameBatches() {
        SplittableRandom r = new SplittableRandom(22_05);
        for (int t = 0; t < TRIALS; t++) {
            Trial trial = trial(r);
            List<String> expected;
            try (DataLoader<long[]> fixed = trial.fixed(2)) {
                expected = ResumeRuns.uninterrupted(fixed, EPOCHS, AutotuneInvarianceTest::describe);
            }
            int stopAfter = r.nextInt(expected.size() + 1);
            List<String> seen = new ArrayList<>();
            LoaderState state;
            try (DataLoader<long[]> before = trial.tuned(decisions(r, trial, expected.size()))) {
                state = ResumeRuns.stopAfter(before, EPOCHS, stopAfter, AutotuneInvarianceTest::describe, seen);
            }
            LoaderState fixedState;
            try (DataLoader<long[]> fixed = trial.fixed(1)) {
                ResumeRuns.stopAfter(fixed, EPOCHS, stopAfter, AutotuneInvarianceTest::describe, new ArrayList<>());
                fixedState = fixed.state();
            }
            assertThat(state).as("trial %d: %s, stopped after %d", t, trial, stopAfter).isEqualTo(fixedState);
            try (DataLoader<long[]> after = trial.tuned(decisions(r, trial, expected.size()))) {
                ResumeRuns.resume(after, state, EPOCHS, AutotuneInvarianceTest::describe, seen, () -> {});
            }
            assertThat(seen).as("trial %d: %s, stopped after %d", t, trial, stopAfter).isEqualTo(expected);
        }
    }
}
