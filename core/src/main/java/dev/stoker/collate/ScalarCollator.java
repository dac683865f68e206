package dev.stoker.collate;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.util.List;

/**
 * Boxed scalars into a tensor of shape {@code (n)}, with PyTorch's types for Python's scalars:
 * every integer type widens to {@code i64} (Python's {@code int} becomes {@code torch.int64}),
 * {@code Double} is {@code f64} (Python's {@code float}), {@code Boolean} is {@code bool}. Only
 * {@code Float} keeps its own width, {@code f32}, since Java code that boxes a float means one.
 */
final class ScalarCollator implements Collator {
    static final ScalarCollator F64 = new ScalarCollator(DType.F64);
    static final ScalarCollator F32 = new ScalarCollator(DType.F32);
    static final ScalarCollator I64 = new ScalarCollator(DType.I64);
    static final ScalarCollator BOOL = new ScalarCollator(DType.BOOL);

    private final DType dtype;

    private ScalarCollator(DType dtype) {
        this.dtype = dtype;
    }

    @Override
    public Object collate(List<?> values, CollateContext ctx) {
        int n = values.size();
        Tensor out = ctx.memory().allocate(dtype, Shape.of(n));
        for (int i = 0; i < n; i++) {
            Object v = values.get(i);
            switch (dtype) {
                case BOOL -> out.setLong(i, ((Boolean) v) ? 1 : 0);
                case I64 -> out.setLong(i, ((Number) v).longValue());
                case F32 -> out.setFloat(i, ((Number) v).floatValue());
                default -> out.setDouble(i, ((Number) v).doubleValue());
            }
        }
        return out;
    }
}
