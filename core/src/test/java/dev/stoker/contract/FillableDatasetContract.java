package dev.stoker.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.collate.Collate;
import dev.stoker.collate.DefaultCollate;
import dev.stoker.data.BatchSlots;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.WorkerContext;
import dev.stoker.data.WorkerScope;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderBuilder;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link FillableDataset}, run by a subclass per fillable dataset beside its
 * {@link MapDatasetContract}: the batch the loader fills equals, byte for byte, the batch
 * {@link DefaultCollate} makes of the samples {@code get} returns (with 0 and 2 workers, in the same
 * order); {@code fill} writes every byte of its slot (a slot poisoned two ways fills the same);
 * {@code fillBatch} equals {@code fill} row by row; the layout is stable; bounds are checked.
 *
 * <pre>{@code
 * class NpyDatasetFillContractTest extends FillableDatasetContract<Tensor> {
 *     protected Opened<Tensor> open() throws Exception {
 *         NpyDataset ds = NpyDataset.open(file);
 *         return new Opened<>(ds, ds);
 *     }
 * }
 * }</pre>
 *
 * @param <T> the sample type of {@code get}
 */
public abstract class FillableDatasetContract<T> {
    private FillableDataset<T> dataset;
    private AutoCloseable resource;

    /** The dataset under test, with at least 5 samples, and what closes it. */
    public record Opened<T>(FillableDataset<T> dataset, AutoCloseable resource) {
        /** A dataset that holds nothing to close. */
        public static <T> Opened<T> of(FillableDataset<T> dataset) {
            return new Opened<>(dataset, () -> {});
        }
    }

    protected abstract Opened<T> open() throws Exception;

    /**
     * The collate whose batches the fill path must equal: {@link DefaultCollate#instance()}, or
     * the default collate with a dataset's own collators registered where its samples need them.
     */
    protected Collate<? super T> collate() {
        return DefaultCollate.instance();
    }

    @BeforeEach
    void openDataset() throws Exception {
        Opened<T> o = open();
        dataset = o.dataset();
        resource = o.resource();
        assertThat(dataset.size()).as("the contract needs a few samples").isGreaterThanOrEqualTo(5);
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
    void fillEqualsCollateByteForByte() {
        for (int workers : new int[] {0, 2}) {
            List<List<String>> filled = batches(DataLoader.builder(dataset), workers);
            List<List<String>> collated = batches(DataLoader.builder(dataset).collate(collate()), workers);
            assertThat(filled).as("%d workers: the filled batches, then the collated ones", workers)
                    .hasSameSizeAs(collated);
            for (int b = 0; b < filled.size(); b++) {
                assertThat(filled.get(b)).as("batch %d, %d workers: filled (actual) against collated", b, workers)
                        .isEqualTo(collated.get(b));
            }
        }
    }

    @Test
    void fillWritesEveryByteOfItsSlot() {
        int n = (int) Math.min(dataset.size(), 64);
        try (Arena arena = Arena.ofConfined()) {
            BatchSlots zeros = slots(arena, 1, (byte) 0);
            BatchSlots ones = slots(arena, 1, (byte) 0xA5);
            for (int i = 0; i < n; i++) {
                poison(zeros, (byte) 0);
                poison(ones, (byte) 0xA5);
                long index = i;
                inScope(() -> dataset.fill(index, zeros.slot(0)));
                inScope(() -> dataset.fill(index, ones.slot(0)));
                assertThat(rows(ones)).as("sample %d filled over 0xA5 against over zeros", i).isEqualTo(rows(zeros));
            }
        }
    }

    @Test
    void fillBatchEqualsFillRowByRow() {
        long n = dataset.size();
        long[] indices = {n - 1, 0, n / 2, 0, 1};
        try (Arena arena = Arena.ofConfined()) {
            BatchSlots batch = slots(arena, indices.length, (byte) 0x5A);
            BatchSlots one = slots(arena, indices.length, (byte) 0x5A);
            inScope(() -> dataset.fillBatch(indices, batch));
            for (int j = 0; j < indices.length; j++) {
                int row = j;
                inScope(() -> dataset.fill(indices[row], one.slot(row)));
            }
            assertThat(rows(batch)).isEqualTo(rows(one));
        }
    }

    @Test
    void fillChecksBounds() {
        long n = dataset.size();
        try (Arena arena = Arena.ofConfined()) {
            BatchSlots slots = slots(arena, 1, (byte) 0);
            for (long bad : new long[] {-1, n, Long.MAX_VALUE}) {
                assertThatThrownBy(() -> inScope(() -> dataset.fill(bad, slots.slot(0)))).as("index %d", bad)
                        .isInstanceOf(IndexOutOfBoundsException.class);
                assertThatThrownBy(() -> inScope(() -> dataset.fillBatch(new long[] {bad}, slots)))
                        .as("fillBatch with index %d", bad).isInstanceOf(IndexOutOfBoundsException.class);
            }
        }
    }

    /** Runs a fill as a worker of a loader does, inside a worker scope (a fill may draw from the batch's generator). */
    private static void inScope(Runnable fill) {
        WorkerContext ctx = new WorkerContext(0, 1, 0, 1, 0, 11);
        WorkerScope.run(ctx, ctx.batchRandomSeed(0), fill);
    }

    /** A fill after close either works (a dataset that opens a file per read) or is refused; it never crashes. */
    @Test
    void aClosedDatasetRefusesFillsWithoutCrashing() throws Exception {
        resource.close();
        resource.close(); // idempotent
        try (Arena arena = Arena.ofConfined()) {
            BatchSlots slots = slots(arena, 1, (byte) 0);
            try {
                inScope(() -> dataset.fill(0, slots.slot(0)));
            } catch (IllegalStateException expected) {
                // refused: the dataset's memory or file is closed
            }
        }
    }

    private List<List<String>> batches(LoaderBuilder<T> builder, int workers) {
        List<List<String>> out = new ArrayList<>();
        try (DataLoader<T> loader = builder.batchSize(3).shuffle(true).seed(11).numWorkers(workers).build()) {
            for (Batch b : loader) {
                try (b) {
                    out.add(Contents.describe(b.data()));
                }
            }
            assertThat(loader.pool().lentBytes()).isZero();
        }
        return out;
    }

    /** Slots for {@code rows} samples of the dataset's layout, every byte set to {@code fill}. */
    private BatchSlots slots(Arena arena, int rows, byte fill) {
        SampleLayout layout = dataset.layout();
        List<Tensor> tensors = new ArrayList<>();
        for (SampleLayout.Field f : layout.fields()) {
            Tensor t = Tensor.allocate(arena, f.dtype(), f.shape().prepend(rows));
            t.segment().fill(fill);
            tensors.add(t);
        }
        return new BatchSlots(layout, tensors);
    }

    private static void poison(BatchSlots slots, byte fill) {
        for (int f = 0; f < slots.layout().size(); f++) {
            slots.tensor(f).segment().fill(fill);
        }
    }

    private static List<String> rows(BatchSlots slots) {
        List<Object> tensors = new ArrayList<>();
        for (int f = 0; f < slots.layout().size(); f++) {
            tensors.add(slots.tensor(f));
        }
        return Contents.describe(tensors);
    }
}
