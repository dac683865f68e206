package dev.stoker.collate;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.util.List;

/**
 * Stacks primitive arrays of one length into a tensor of shape {@code (n, length)}; the dtype
 * follows the array type (see {@link PrimitiveArrays}).
 */
final class ArrayStacker implements Collator {
    private final DType dtype;

    ArrayStacker(Class<?> arrayType) {
        this.dtype = PrimitiveArrays.dtypeOf(arrayType);
        if (dtype == null) {
            throw new IllegalArgumentException("not a supported primitive array type: " + arrayType.getTypeName());
        }
    }

    @Override
    public Object collate(List<?> values, CollateContext ctx) {
        int n = values.size();
        int length = PrimitiveArrays.length(values.getFirst());
        for (int i = 1; i < n; i++) {
            int other = PrimitiveArrays.length(values.get(i));
            if (other != length) {
                throw ctx.shapeMismatch(i, Shape.of(length), Shape.of(other));
            }
        }
        long rowBytes = (long) length * dtype.byteSize();
        ctx.noteHeapArrays(rowBytes);
        Tensor out = ctx.memory().allocate(dtype, Shape.of(n, length));
        for (int i = 0; i < n; i++) {
            PrimitiveArrays.copy(values.get(i), out.segment(), i * rowBytes);
        }
        return out;
    }
}
