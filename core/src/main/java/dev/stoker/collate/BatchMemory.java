package dev.stoker.collate;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;

/**
 * Memory for the batch being built: each tensor comes from the loader's pool and goes back
 * when the batch is closed. Collate functions and datasets that fill a batch directly take their
 * output tensors from here instead of allocating.
 */
@FunctionalInterface
public interface BatchMemory {

    /** A tensor of the given type and shape, owned by the batch. Its contents are not cleared. */
    Tensor allocate(DType dtype, Shape shape);

    /** A tensor as {@link #allocate}, filled with zeros. */
    default Tensor allocateZeroed(DType dtype, Shape shape) {
        Tensor t = allocate(dtype, shape);
        t.segment().fill((byte) 0);
        return t;
    }
}
