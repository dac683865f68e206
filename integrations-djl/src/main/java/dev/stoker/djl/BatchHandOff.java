package dev.stoker.djl;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.translate.Batchifier;
import dev.stoker.loader.Batch;
import java.util.Arrays;
import java.util.List;

/**
 * Hands one Stoker batch to DJL: a DJL batch whose NDArrays share the Stoker batch's memory, and
 * whose manager owns the Stoker batch, so that closing either one's manager gives the memory back.
 */
final class BatchHandOff {
    /** The id the Stoker batch is attached under in its DJL batch's manager. */
    static final String RESOURCE_ID = "stoker-batch";

    private BatchHandOff() {}

    /**
     * @param parent        the manager DJL passed to {@code getData}; the batch gets a CPU sub-manager of it
     * @param progressTotal batches in the epoch, 0 when unknown (streaming)
     * @throws IllegalArgumentException when the split does not fit the batch or a field cannot be
     *     wrapped; the Stoker batch is closed then
     */
    static ai.djl.training.dataset.Batch toDjl(Batch stoker, NDManager parent, FieldSplit split, long progressTotal) {
        NDManager manager;
        try {
            // The CPU, whatever the parent's device: a view of host memory can only be made there.
            // On a GPU, Batch.split (EasyTrain) then moves it in one copy, read straight from Stoker's memory.
            manager = parent.newSubManager(Device.cpu());
            manager.attachInternal(RESOURCE_ID, stoker);
        } catch (RuntimeException | Error e) {
            stoker.close();
            throw e;
        }
        try {
            PickedFields picked = PickedFields.pick(stoker, split);
            NDList data = wrap(manager, picked.data());
            NDList labels = wrap(manager, picked.labels());
            List<Long> indices = Arrays.stream(stoker.indices()).boxed().toList();
            // STACK: the batches are stacked along axis 0, which is what lets DJL split them across devices
            return new ai.djl.training.dataset.Batch(manager, data, labels, size(stoker, data), Batchifier.STACK,
                    Batchifier.STACK, stoker.index(), progressTotal, indices);
        } catch (RuntimeException | Error e) {
            manager.close(); // closes the Stoker batch too
            throw e;
        }
    }

    private static NDList wrap(NDManager manager, List<PickedFields.Picked> fields) {
        NDList list = new NDList(fields.size());
        for (PickedFields.Picked f : fields) {
            NDArray array = NdArrays.wrap(manager, f.tensor(), f.what());
            array.setName(f.name());
            list.add(array);
        }
        return list;
    }

    /** Samples in the batch: the first data tensor's first axis (streaming batches have no indices). */
    private static int size(Batch stoker, NDList data) {
        NDArray first = data.head();
        if (first.getShape().dimension() > 0) {
            return Math.toIntExact(first.getShape().get(0));
        }
        return stoker.indices().length;
    }
}
