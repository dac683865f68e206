package dev.stoker.djl;

import ai.djl.ndarray.NDManager;
import ai.djl.training.dataset.Batch;
import ai.djl.training.dataset.Dataset;
import ai.djl.util.Progress;
import dev.stoker.loader.BatchIterator;
import dev.stoker.loader.DataLoader;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A Stoker {@link DataLoader} as a DJL {@link Dataset}: Stoker loads the batches, in parallel and
 * in its own memory; DJL trains on them as NDArrays over that same memory, copied nowhere.
 *
 * <p>Each {@link #getData} call is one epoch: it starts the loader's next pass (epoch 0, 1, ... as
 * the loader counts them, so a shuffling loader shuffles anew). Each Stoker batch becomes a DJL
 * {@link Batch} whose data and labels are the fields the {@link FieldSplit} picks (by default the
 * first field is the data and the rest are labels), each an NDArray made by {@link NdArrays#wrap}.
 * The loader's workers do the loading; DJL's executor, when it passes one, is not needed.
 *
 * <pre>{@code
 * try (DataLoader<List<Tensor>> loader = DataLoader.builder(TensorDataset.of(x, y))   // x (n, 8), y (n, 1)
 *             .batchSize(32).shuffle(true).numWorkers(4).build();
 *      Model model = Model.newInstance("linear")) {
 *     model.setBlock(Linear.builder().setUnits(1).build());
 *     try (Trainer trainer = model.newTrainer(new DefaultTrainingConfig(Loss.l2Loss()))) {
 *         trainer.initialize(new Shape(32, 8));
 *         EasyTrain.fit(trainer, 10, new StokerDataset(loader), null);   // data: [x], labels: [y]
 *     }
 * }
 * }</pre>
 *
 * <p>NOTE: a DJL batch owns its Stoker batch. Closing the DJL batch (as {@code EasyTrain} does
 * after each step), or any manager above it, closes the Stoker batch and gives its memory back to
 * the loader's pool, where the next batch overwrites it. So the batch's NDArrays must not be used
 * after it is closed, nor moved out of its manager ({@code attach}, {@code detach}). To keep a
 * value, move a copy out: {@code array.duplicate().attach(longLivedManager)} ({@code duplicate()}
 * alone copies into the batch's manager, which closes with it). A batch that is never closed holds
 * its memory until the manager given to {@code getData} closes, and the loader waits for memory.
 * The loader stays the caller's: close it after the last epoch.
 *
 * <p>The batch reports its progress in batches: {@code getProgress()} is its index in the epoch,
 * from 0 (DJL's {@code ProgressBar} shows {@code (progress + 1) / total}), and
 * {@code getProgressTotal()} is {@link DataLoader#batchesPerEpoch()} (0 for a streaming dataset,
 * which has no length; DJL then shows no bar).
 */
public final class StokerDataset implements Dataset {
    private final DataLoader<?> loader;
    private final FieldSplit split;

    /** Batches with the first field as data and the others as labels ({@link FieldSplit#firstIsData()}). */
    public StokerDataset(DataLoader<?> loader) {
        this(loader, FieldSplit.firstIsData());
    }

    /** Batches whose data and labels are the fields {@code split} picks. */
    public StokerDataset(DataLoader<?> loader, FieldSplit split) {
        this.loader = Objects.requireNonNull(loader, "loader");
        this.split = Objects.requireNonNull(split, "split");
    }

    /**
     * Starts the loader's next pass, one epoch, for one iteration; call it again for the next epoch.
     * The batches' NDArrays are on the CPU, in sub-managers of {@code manager}.
     */
    @Override
    public Iterable<Batch> getData(NDManager manager) {
        Objects.requireNonNull(manager, "manager");
        long total = batchesPerEpoch();
        BatchIterator pass = loader.iterator();
        AtomicBoolean taken = new AtomicBoolean();
        return () -> {
            if (!taken.compareAndSet(false, true)) {
                throw new IllegalStateException("this epoch of " + loader + " is already being iterated;"
                        + " call getData again for the next epoch");
            }
            return new Pass(pass, manager, total);
        };
    }

    /** As {@link #getData(NDManager)}: the loader's own workers load in parallel; {@code executor} is not used. */
    @Override
    public Iterable<Batch> getData(NDManager manager, ExecutorService executor) {
        return getData(manager);
    }

    /** Nothing to do: the loader's dataset is ready when the loader is built. */
    @Override
    public void prepare(Progress progress) {}

    /** Batches per epoch, as the loader counts them, or 0 for a streaming dataset (no length). */
    public long batchesPerEpoch() {
        try {
            return loader.batchesPerEpoch();
        } catch (UnsupportedOperationException streaming) {
            return 0;
        }
    }

    public DataLoader<?> loader() {
        return loader;
    }

    public FieldSplit split() {
        return split;
    }

    @Override
    public String toString() {
        return "StokerDataset(" + loader + ", " + split + ")";
    }

    /** One epoch's Stoker batches, handed to DJL as they are asked for. */
    private final class Pass implements Iterator<Batch> {
        private final BatchIterator pass;
        private final NDManager manager;
        private final long total;

        Pass(BatchIterator pass, NDManager manager, long total) {
            this.pass = pass;
            this.manager = manager;
            this.total = total;
        }

        @Override
        public boolean hasNext() {
            return pass.hasNext();
        }

        @Override
        public Batch next() {
            return BatchHandOff.toDjl(pass.next(), manager, split, total);
        }
    }
}
