package dev.stoker.loader.engine;

import dev.stoker.data.BatchSlots;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.loader.Batch;
import dev.stoker.loader.LoaderException;
import java.util.Arrays;
import java.util.Optional;

/**
 * The fill path of a map-style dataset: the batch tensors of its layout are taken from the pool
 * first ({@link BatchMaker#filled}), the dataset writes every sample into its row (one
 * {@code fill} per sample, or one {@code fillBatch} when it has its own: {@code perSample} false),
 * and the tensors become the batch as the default collate would have arranged them. No sample
 * object, no collate copy.
 *
 * <p>Under {@link SamplePolicy#SKIP} a sample whose {@code fill} throws is left out: the batch
 * holds the others, in order, and its indices name only those; a {@code fillBatch} that fails is
 * retried sample by sample to find the bad ones.
 */
record RowFill<T>(FillableDataset<T> dataset, SampleLayout layout, boolean perSample) implements MapRecipe<T> {

    @Override
    public boolean sharesSamples(BatchMaker maker) {
        return perSample && maker.skips() == null;
    }

    @Override
    public Optional<SampleLayout> fillLayout() {
        return Optional.of(layout);
    }

    @Override
    public Batch make(BatchMaker maker, long epoch, long k, long[] indices, BatchHelp help) {
        long start = System.nanoTime();
        return maker.filled(layout, epoch, k, indices, indices.length, start, slots -> {
            long[] delivered = write(maker, epoch, k, indices, slots, help);
            return new BatchMaker.Rows(delivered.length, delivered);
        });
    }

    /** Fills the rows of the batch; returns the indices delivered, in their rows' order. */
    private long[] write(BatchMaker maker, long epoch, long k, long[] indices, BatchSlots slots, BatchHelp help) {
        if (perSample && maker.skips() != null) {
            return fillSkipping(maker, epoch, k, indices, slots);
        }
        if (perSample) {
            int shared = help.isOpen() ? shared(maker, epoch, k, indices, slots, help) : 0; // a volatile read
            for (int j = shared; j < indices.length; j++) {
                try {
                    dataset.fill(indices[j], slots.slot(j));
                } catch (RuntimeException | Error e) {
                    // the field only when this sample asked for one, not a field of an earlier sample
                    String field = slots.lastRow() == j ? BatchMaker.fieldOf(slots) : "";
                    throw maker.failure("filling " + field + "sample " + indices[j] + " for", epoch, k,
                            indices, indices[j], e);
                }
            }
            return indices;
        }
        try {
            dataset.fillBatch(indices.clone(), slots); // a copy: the batch keeps the original
            return indices;
        } catch (Error e) {
            throw fillBatchFailure(maker, epoch, k, indices, slots, e);
        } catch (Exception e) {
            if (maker.skips() != null && !Thread.currentThread().isInterrupted()) {
                // some sample is bad: fill the batch again sample by sample, leaving it out
                return fillSkipping(maker, epoch, k, indices, slots);
            }
            throw fillBatchFailure(maker, epoch, k, indices, slots, e);
        }
    }

    /** A lane's first batch: its rows filled with the other workers' help; returns how many from row 0 are. */
    private int shared(BatchMaker maker, long epoch, long k, long[] indices, BatchSlots slots, BatchHelp help) {
        try {
            return help.share(indices.length, j -> {
                SampleSlot slot = slots.slot(j);
                try {
                    dataset.fill(indices[j], slot);
                } catch (RuntimeException | Error e) {
                    if (slot.lastField() != null) {
                        throw new FieldFailure(slot.lastField(), e); // this row's field, not another row's
                    }
                    throw e;
                }
            });
        } catch (SharedSamples.Failed f) {
            String field = f.getCause() instanceof FieldFailure ff ? "field '" + ff.field + "' of " : "";
            Throwable cause = f.getCause() instanceof FieldFailure ff ? ff.getCause() : f.getCause();
            throw maker.failure("filling " + field + "sample " + indices[f.j] + " for", epoch, k, indices,
                    indices[f.j], cause);
        }
    }

    /**
     * The fill under {@link SamplePolicy#SKIP}, one {@code fill} per sample: the delivered samples
     * take rows 0, 1, ... in order, a failed one's row being written again by the next sample (a
     * fill writes every byte of its row). Returns the indices delivered, in their rows' order.
     */
    private long[] fillSkipping(BatchMaker maker, long epoch, long k, long[] indices, BatchSlots slots) {
        long[] kept = new long[indices.length];
        int rows = 0;
        for (long i : indices) {
            try {
                dataset.fill(i, slots.slot(rows));
            } catch (Error e) {
                throw maker.failure("filling sample " + i + " for", epoch, k, indices, i, e);
            } catch (Exception e) {
                if (Thread.currentThread().isInterrupted()) {
                    throw maker.failure("filling sample " + i + " for", epoch, k, indices, i, e);
                }
                maker.skips().skip(epoch, k, i, e);
                continue;
            }
            kept[rows++] = i;
        }
        return rows == indices.length ? indices : Arrays.copyOf(kept, rows);
    }

    private static LoaderException fillBatchFailure(BatchMaker maker, long epoch, long k, long[] indices,
                                                    BatchSlots slots, Throwable e) {
        int row = slots.lastRow();
        String sample = row < 0 ? "the samples of" : "sample " + indices[row] + " for";
        return maker.failure("filling " + BatchMaker.fieldOf(slots) + sample, epoch, k, indices,
                row < 0 ? -1 : indices[row], e);
    }
}
