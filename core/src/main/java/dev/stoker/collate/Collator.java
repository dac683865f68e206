package dev.stoker.collate;

import java.util.List;

/**
 * Collates the values of one type, one per sample, into the batch's value for them: the unit a
 * {@link DefaultCollate} dispatches to by the type of the first sample, like an entry of PyTorch's
 * {@code collate_fn_map}.
 *
 * <p>Every value in {@code values} is an instance of the class the collator was registered for
 * (the dispatcher checks that, and nulls, before the call). A collator of a container type
 * collates its parts with {@link CollateContext#collateField} or {@link CollateContext#collateElement},
 * which dispatch again and keep the path for error messages.
 *
 * <pre>{@code
 * record Point(float x, float y) {}
 * Collator points = (values, ctx) -> {
 *     Tensor t = ctx.memory().allocate(DType.F32, Shape.of(values.size(), 2));
 *     for (int i = 0; i < values.size(); i++) {
 *         Point p = (Point) values.get(i);
 *         t.setFloat(2L * i, p.x());
 *         t.setFloat(2L * i + 1, p.y());
 *     }
 *     return t;
 * };
 * DefaultCollate collate = DefaultCollate.builder().register(Point.class, points).build();
 * }</pre>
 */
@FunctionalInterface
public interface Collator {

    /**
     * @param values  one value per sample, in batch order; never empty, never containing null
     * @param context the batch memory, where these values sit in the samples, and recursion
     * @throws CollateException when the values cannot be put together
     */
    Object collate(List<?> values, CollateContext context);
}
