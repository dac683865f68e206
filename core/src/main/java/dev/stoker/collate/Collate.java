package dev.stoker.collate;

import java.util.List;

/**
 * Turns the samples of one batch into the batch's value, like PyTorch's {@code collate_fn}.
 *
 * <p>The result is what {@link dev.stoker.loader.Batch#data()} returns: usually tensors (taken
 * from {@code memory}), lists and maps of them. A collate function is called from worker threads
 * and must not keep state between calls.
 *
 * <pre>{@code
 * Collate<float[]> stack = DefaultCollate.instance()::collate;       // the default stacking
 * Collate<Object> identity = (samples, memory) -> samples;           // keep the samples as they are
 * }</pre>
 */
@FunctionalInterface
public interface Collate<T> {
    Object collate(List<T> samples, BatchMemory memory);
}
