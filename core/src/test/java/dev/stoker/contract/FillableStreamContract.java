package dev.stoker.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.BatchSlots;
import dev.stoker.data.FillableStreamingDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.data.WorkerScope;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link FillableStreamingDataset}, beside its {@link StreamDatasetContract}: the
 * batches the loader fills are the stream's samples, each written by {@code fill} into its row
 * (with no workers, batch for batch; with 2 workers, the same rows), and {@code fill} writes every
 * byte of its slot (a slot poisoned two ways fills the same).
 *
 * @param <T> what the stream yields
 */
public abstract class FillableStreamContract<T> {
    private static final int BATCH = 3;
    private static final long SEED = 7;

    private FillableStreamingDataset<T> dataset;
    private AutoCloseable resource;

    /** The dataset under test, with at least 5 samples per epoch, and what closes it. */
    public record Opened<T>(FillableStreamingDataset<T> dataset, AutoCloseable resource) {
        /** A dataset that holds nothing to close. */
        public static <T> Opened<T> of(FillableStreamingDataset<T> dataset) {
            return new Opened<>(dataset, () -> {});
        }
    }

    protected abstract Opened<T> open() throws Exception;

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

    @Test
    void theLayoutIsStable() {
        assertThat(dataset.layout()).isEqualTo(dataset.layout());
    }

    @Test
    void theLoaderFillsWhatFillWritesOfEachSample() {
        List<List<String>> expected = byHand(new WorkerContext(0, 1, 0, 1, 0, SEED), new ArrayList<>());
        assertThat(expected).as("the contract needs a few samples").hasSizeGreaterThanOrEqualTo(2);
        assertThat(loaderBatches(0, new ArrayList<>())).isEqualTo(expected);
        List<String> rows = new ArrayList<>(); // the rows of the two workers' streams, filled here
        for (int w = 0; w < 2; w++) {
            byHand(new WorkerContext(w, 2, 0, 1, 0, SEED), rows);
        }
        List<String> rowsOfTwo = new ArrayList<>();
        loaderBatches(2, rowsOfTwo);
        assertThat(Contents.multiset(rowsOfTwo)).as("2 workers: the rows of their streams").isEqualTo(Contents.multiset(rows));
    }

    @Test
    void fillWritesEveryByteOfItsSlot() {
        WorkerContext ctx = new WorkerContext(0, 1, 0, 1, 0, SEED);
        try (Arena arena = Arena.ofConfined();
             SampleStream<T> s = WorkerScope.call(ctx, ctx.randomSeed(), () -> dataset.open(ctx))) {
            BatchSlots zeros = slots(arena, 1);
            BatchSlots ones = slots(arena, 1);
            for (long k = 0; k < 64 && WorkerScope.call(ctx, ctx.streamRandomSeed(k), s::hasNext); k++) {
                long seed = ctx.streamRandomSeed(k);
                T sample = WorkerScope.call(ctx, seed, s::next);
                poison(zeros, (byte) 0);
                poison(ones, (byte) 0xA5);
                WorkerScope.run(ctx, seed, () -> dataset.fill(sample, zeros.slot(0)));
                WorkerScope.run(ctx, seed, () -> dataset.fill(sample, ones.slot(0)));
                assertThat(Contents.describe(tensors(ones))).as("sample %d filled over 0xA5 against over zeros", k)
                        .isEqualTo(Contents.describe(tensors(zeros)));
            }
        }
    }

    /** The batches of one worker's stream of epoch 0, filled here sample by sample as the loader's fill path would. */
    private List<List<String>> byHand(WorkerContext ctx, List<String> rows) {
        List<List<String>> out = new ArrayList<>();
        try (Arena arena = Arena.ofConfined();
             SampleStream<T> s = WorkerScope.call(ctx, ctx.randomSeed(), () -> dataset.open(ctx))) {
            for (long k = 0; ; k++) {
                long seed = ctx.streamRandomSeed(k);
                List<T> samples = WorkerScope.call(ctx, seed, () -> {
                    List<T> got = new ArrayList<>();
                    while (got.size() < BATCH && s.hasNext()) {
                        got.add(s.next());
                    }
                    return got;
                });
                if (samples.isEmpty()) {
                    return out;
                }
                BatchSlots slots = slots(arena, samples.size());
                WorkerScope.run(ctx, seed, () -> {
                    for (int j = 0; j < samples.size(); j++) {
                        dataset.fill(samples.get(j), slots.slot(j));
                    }
                });
                out.add(Contents.describe(batchData(slots)));
                rows.addAll(Contents.rows(batchData(slots)));
            }
        }
    }

    private List<List<String>> loaderBatches(int workers, List<String> rows) {
        List<List<String>> out = new ArrayList<>();
        try (DataLoader<T> loader = DataLoader.builder(dataset).batchSize(BATCH).seed(SEED).numWorkers(workers).build()) {
            for (Batch b : loader) {
                try (b) {
                    out.add(Contents.describe(b.data()));
                    rows.addAll(Contents.rows(b.data()));
                }
            }
            assertThat(loader.pool().lentBytes()).isZero();
        }
        return out;
    }

    /** The slots arranged as the loader arranges a batch of the layout's form. */
    private static Object batchData(BatchSlots slots) {
        SampleLayout layout = slots.layout();
        return switch (layout.form()) {
            case TENSOR -> slots.tensor(0);
            case LIST -> tensors(slots);
            case MAP -> {
                java.util.Map<String, Tensor> m = new java.util.LinkedHashMap<>();
                for (int f = 0; f < layout.size(); f++) {
                    m.put(layout.field(f).name(), slots.tensor(f));
                }
                yield m;
            }
        };
    }

    private BatchSlots slots(Arena arena, int rows) {
        SampleLayout layout = dataset.layout();
        List<Tensor> tensors = new ArrayList<>();
        for (SampleLayout.Field f : layout.fields()) {
            tensors.add(Tensor.allocate(arena, f.dtype(), f.shape().prepend(rows)));
        }
        return new BatchSlots(layout, tensors);
    }

    private static void poison(BatchSlots slots, byte fill) {
        for (int f = 0; f < slots.layout().size(); f++) {
            slots.tensor(f).segment().fill(fill);
        }
    }

    private static List<Object> tensors(BatchSlots slots) {
        List<Object> out = new ArrayList<>();
        for (int f = 0; f < slots.layout().size(); f++) {
            out.add(slots.tensor(f));
        }
        return out;
    }
}
