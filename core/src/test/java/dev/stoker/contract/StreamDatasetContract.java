package dev.stoker.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.data.ReshardableStreamingDataset;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.data.WorkerScope;
import dev.stoker.loader.Batch;
import dev.stoker.loader.BatchIterator;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderBuilder;
import dev.stoker.loader.LoaderState;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every streaming dataset of the project keeps ({@link StreamingDataset}, PyTorch's
 * {@code IterableDataset} with torchdata's resumable state), run by a subclass per dataset:
 * <ul>
 *   <li>split by worker and by rank: the streams of every worker of every rank, for several
 *       layouts, together hold each sample of the epoch exactly once (no sample lost or repeated,
 *       PyTorch's {@code get_worker_info} sharding);
 *   <li>a second pass over the same context is the same;
 *   <li>{@code skip(k)} then reading gives what follows the first {@code k} samples, and a loader
 *       restored from a state saved mid-epoch delivers the same remainder as an uninterrupted run
 *       (torchdata's {@code StatefulDataLoader} test); a reshardable dataset also on other workers;
 *   <li>closing a stream, read or not, releases what it holds (no file descriptor left open) and a
 *       second close does nothing; the loader delivers every sample and empties its pool.
 * </ul>
 * Streams are read as the loader reads them: opened and read inside a worker scope, each sample
 * under the generator of a batch of one.
 *
 * <pre>{@code
 * class JsonlStreamContractTest extends StreamDatasetContract<String> {
 *     protected Opened<String> open() { return Opened.of(JsonlStream.field(files, "text")); }
 *     protected Object content(String s) { return s; }
 * }
 * }</pre>
 *
 * @param <T> what the stream yields
 */
public abstract class StreamDatasetContract<T> {
    private static final long SEED = 7;
    /** Layouts the data is split over: {workers per rank, world size}. */
    private static final int[][] LAYOUTS = {{2, 1}, {1, 2}, {3, 2}, {2, 4}};

    private StreamingDataset<T> dataset;
    private AutoCloseable resource;

    /** The dataset under test, with at least 6 samples per epoch, and what closes it. */
    public record Opened<T>(StreamingDataset<T> dataset, AutoCloseable resource) {
        /** A dataset that holds nothing to close. */
        public static <T> Opened<T> of(StreamingDataset<T> dataset) {
            return new Opened<>(dataset, () -> {});
        }
    }

    protected abstract Opened<T> open() throws Exception;

    /**
     * A value equal for two reads of the same sample (its content, copied out, so it outlives the
     * stream): a string, a list, a record of those, or an array. It must not hold a random draw
     * (draws depend on the worker that reads the sample).
     */
    protected abstract Object content(T sample);

    /**
     * Whether the samples themselves depend on how the data is split (a stream that cuts each
     * worker's documents into windows makes other windows on other layouts): then only the checks
     * within one layout apply, and the one across layouts is skipped.
     */
    protected boolean samplesDependOnTheLayout() {
        return false;
    }

    /** The dataset {@link #open()} gave for this test. */
    protected final StreamingDataset<T> dataset() {
        return dataset;
    }

    @BeforeEach
    void openDataset() throws Exception {
        Opened<T> o = open();
        dataset = o.dataset();
        resource = o.resource();
    }

    @AfterEach
    void closeDataset() throws Exception {
        resource.close();
    }

    /** Every sample of a worker's stream of epoch 0, read as the loader reads with batches of one. */
    protected final List<Object> read(WorkerContext ctx) {
        try (SampleStream<T> s = WorkerScope.call(ctx, ctx.randomSeed(), () -> dataset.open(ctx))) {
            return rest(s, ctx, 0);
        }
    }

    private List<Object> rest(SampleStream<T> s, WorkerContext ctx, long from) {
        List<Object> out = new ArrayList<>();
        for (long k = from; WorkerScope.call(ctx, ctx.streamRandomSeed(k), s::hasNext); k++) {
            out.add(Contents.normal(content(WorkerScope.call(ctx, ctx.streamRandomSeed(k), s::next))));
        }
        return out;
    }

    private static WorkerContext context(int worker, int workers, int rank, int world) {
        return new WorkerContext(worker, workers, rank, world, 0, SEED);
    }

    private List<Object> whole() {
        List<Object> all = read(context(0, 1, 0, 1));
        assertThat(all).as("the contract needs a few samples").hasSizeGreaterThanOrEqualTo(6);
        return all;
    }

    @Test
    void aSecondPassIsTheSame() {
        assertThat(read(context(0, 1, 0, 1))).isEqualTo(whole());
        assertThat(read(context(1, 2, 0, 1))).isEqualTo(read(context(1, 2, 0, 1)));
    }

    @Test
    void aStreamIsAnIterator() {
        WorkerContext ctx = context(0, 1, 0, 1);
        int n = whole().size();
        try (SampleStream<T> s = WorkerScope.call(ctx, ctx.randomSeed(), () -> dataset.open(ctx))) {
            for (int k = 0; k < n; k++) {
                long seed = ctx.streamRandomSeed(k);
                assertThat(WorkerScope.call(ctx, seed, s::hasNext)).as("hasNext before sample %d", k).isTrue();
                assertThat(WorkerScope.call(ctx, seed, s::hasNext)).as("hasNext again: it moves nothing").isTrue();
                WorkerScope.call(ctx, seed, s::next);
            }
            long seed = ctx.streamRandomSeed(n);
            assertThat(WorkerScope.call(ctx, seed, s::hasNext)).as("hasNext at the end").isFalse();
            assertThatThrownBy(() -> WorkerScope.call(ctx, seed, s::next)).as("next at the end")
                    .isInstanceOf(NoSuchElementException.class);
            assertThat(WorkerScope.call(ctx, seed, () -> s.skip(5))).as("skip at the end").isZero();
        }
    }

    @Test
    void everyWorkerOfEveryRankReadsItsOwnShare() {
        assumeTrue(!samplesDependOnTheLayout(), "this dataset's samples depend on the layout");
        var expected = Contents.multiset(whole());
        for (int[] layout : LAYOUTS) {
            int workers = layout[0];
            int world = layout[1];
            List<Object> union = new ArrayList<>();
            for (int rank = 0; rank < world; rank++) {
                for (int w = 0; w < workers; w++) {
                    union.addAll(read(context(w, workers, rank, world)));
                }
            }
            assertThat(Contents.multiset(union)).as("%d workers on each of %d ranks: every sample once", workers, world)
                    .isEqualTo(expected);
        }
    }

    @Test
    void skipThenReadGivesTheRemainder() {
        for (WorkerContext ctx : List.of(context(0, 1, 0, 1), context(1, 2, 0, 1))) {
            List<Object> all = read(ctx);
            int n = all.size();
            for (int k : new int[] {0, 1, n / 2, n - 1, n, n + 3}) {
                if (k < 0) {
                    continue;
                }
                try (SampleStream<T> s = WorkerScope.call(ctx, ctx.randomSeed(), () -> dataset.open(ctx))) {
                    long skipped = WorkerScope.call(ctx, ctx.streamRandomSeed(0), () -> s.skip(k));
                    assertThat(skipped).as("skip(%d) of a stream of %d (%s)", k, n, ctx).isEqualTo(Math.min(k, n));
                    assertThat(rest(s, ctx, skipped)).as("after skip(%d) (%s)", k, ctx)
                            .isEqualTo(all.subList((int) skipped, n));
                }
            }
        }
    }

    @Test
    void aLoaderRestoredMidEpochDeliversTheSameRemainder() {
        for (int workers : new int[] {0, 2}) {
            List<List<Object>> expected = batches(loader(workers));
            assertThat(expected).as("the contract needs at least 2 batches").hasSizeGreaterThanOrEqualTo(2);
            int stop = expected.size() / 2;
            List<List<Object>> seen;
            LoaderState state;
            try (DataLoader<T> first = loader(workers).build()) {
                seen = new ArrayList<>(take(first, stop));
                state = first.state();
            }
            try (DataLoader<T> second = loader(workers).build()) {
                second.restore(state);
                seen.addAll(take(second, Integer.MAX_VALUE));
                assertThat(second.pool().lentBytes()).isZero();
            }
            assertThat(seen).as("%d workers, stopped after %d batches", workers, stop).isEqualTo(expected);
        }
    }

    @Test
    void aReshardableDatasetGoesOnWithOtherWorkers() {
        assumeTrue(dataset instanceof ReshardableStreamingDataset<T>, "this dataset cannot be resharded");
        assumeTrue(!samplesDependOnTheLayout(), "this dataset's samples depend on the layout");
        var expected = Contents.multiset(whole());
        List<Object> seen = new ArrayList<>();
        LoaderState state;
        try (DataLoader<T> first = loader(2).build()) {
            take(first, 1).forEach(seen::addAll);
            state = LoaderState.merge(List.of(first.state()));
        }
        try (DataLoader<T> second = loader(3).build()) {
            second.restore(state);
            take(second, Integer.MAX_VALUE).forEach(seen::addAll);
        }
        assertThat(Contents.multiset(seen)).as("2 workers stopped after a batch, then 3").isEqualTo(expected);
    }

    @Test
    void theLoaderDeliversEverySampleAndEmptiesItsPool() {
        for (int workers : new int[] {0, 2}) {
            List<Object> streams = new ArrayList<>(); // what the workers' streams hold, read here
            for (int w = 0; w < Math.max(1, workers); w++) {
                streams.addAll(read(context(w, Math.max(1, workers), 0, 1)));
            }
            var expected = Contents.multiset(streams);
            List<Object> seen = new ArrayList<>();
            batches(loader(workers)).forEach(seen::addAll);
            assertThat(Contents.multiset(seen)).as("%d workers", workers).isEqualTo(expected);
        }
    }

    @Test
    void closingReleasesEverythingAndIsIdempotent() throws Exception {
        whole(); // anything opened once for good (a sidecar index, a cache) is open before counting
        long before = openFiles();
        for (int round = 0; round < 12; round++) {
            WorkerContext ctx = context(round % 3, 3, 0, 1);
            SampleStream<T> s = WorkerScope.call(ctx, ctx.randomSeed(), () -> dataset.open(ctx));
            if (round % 2 == 0 && WorkerScope.call(ctx, ctx.streamRandomSeed(0), s::hasNext)) {
                content(WorkerScope.call(ctx, ctx.streamRandomSeed(0), s::next)); // read part of it
            }
            s.close();
            s.close();
        }
        for (int round = 0; round < 3; round++) { // a loader closed mid-epoch closes its workers' streams
            try (DataLoader<T> loader = loader(2).build()) {
                take(loader, 1);
                assertThat(loader.pool().lentBytes()).isZero();
            }
        }
        long after = openFiles();
        if (before >= 0) {
            assertThat(after - before).as("file descriptors left open by 15 streams and 3 loaders closed").isLessThan(5);
        }
        resource.close();
        resource.close(); // idempotent
    }

    private LoaderBuilder<T> loader(int workers) {
        return DataLoader.builder(dataset).batchSize(2).seed(SEED).numWorkers(workers)
                .collate((samples, memory) -> samples);
    }

    private List<List<Object>> batches(LoaderBuilder<T> builder) {
        try (DataLoader<T> loader = builder.build()) {
            List<List<Object>> out = take(loader, Integer.MAX_VALUE);
            assertThat(loader.pool().lentBytes()).isZero();
            return out;
        }
    }

    /** Up to {@code most} batches of the loader's next pass, each as its samples' contents. */
    private List<List<Object>> take(DataLoader<T> loader, int most) {
        List<List<Object>> out = new ArrayList<>();
        BatchIterator it = loader.iterator();
        while (out.size() < most && it.hasNext()) {
            try (Batch b = it.next()) {
                List<Object> contents = new ArrayList<>();
                for (Object s : (List<?>) b.data()) {
                    @SuppressWarnings("unchecked")
                    T sample = (T) s;
                    contents.add(Contents.normal(content(sample)));
                }
                out.add(contents);
            }
        }
        return out;
    }

    /** This process's open file descriptors, or -1 where the platform does not say. */
    private static long openFiles() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean u
                ? u.getOpenFileDescriptorCount() : -1;
    }
}
