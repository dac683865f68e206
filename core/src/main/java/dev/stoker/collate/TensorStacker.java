package dev.stoker.collate;

import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Stacks tensors of one dtype and shape into a tensor of shape {@code (n, ...shape)}, one row per
 * sample, with one bulk copy per row.
 */
final class TensorStacker implements Collator {
    static final TensorStacker INSTANCE = new TensorStacker();

    private TensorStacker() {}

    @Override
    public Object collate(List<?> values, CollateContext ctx) {
        Tensor first = (Tensor) values.getFirst();
        int n = values.size();
        // Check every sample before allocating, so a bad batch takes no memory from the pool.
        for (int i = 1; i < n; i++) {
            Tensor t = (Tensor) values.get(i);
            if (t.dtype() != first.dtype()) {
                throw new CollateException("cannot stack " + ctx.path() + ": sample 0 is " + first.dtype()
                        + " but sample " + i + " is " + t.dtype() + " (shape " + t.shape() + ")");
            }
            if (!t.shape().equals(first.shape())) {
                throw ctx.shapeMismatch(i, first.shape(), t.shape());
            }
        }
        if (!first.segment().isNative()) {
            ctx.noteHeapArrays(first.byteSize());
        }
        Tensor out = ctx.memory().allocate(first.dtype(), first.shape().prepend(n));
        long rowBytes = first.byteSize();
        MemorySegment dst = out.segment();
        for (int i = 0; i < n; i++) {
            MemorySegment.copy(((Tensor) values.get(i)).segment(), 0, dst, i * rowBytes, rowBytes);
        }
        return out;
    }
}
