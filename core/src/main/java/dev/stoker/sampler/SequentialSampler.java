package dev.stoker.sampler;

import java.util.PrimitiveIterator;
import java.util.function.LongUnaryOperator;

/**
 * Yields {@code 0, 1, ..., size - 1} every epoch, like PyTorch's {@code SequentialSampler}.
 *
 * <pre>{@code
 * Sampler s = new SequentialSampler(4);
 * s.iterator(0);   // 0, 1, 2, 3
 * }</pre>
 *
 * @param size the dataset size, {@code >= 0}
 */
public record SequentialSampler(long size) implements Sampler {

    public SequentialSampler {
        if (size < 0) {
            throw new IllegalArgumentException("size must be >= 0, got " + size);
        }
    }

    @Override
    public PrimitiveIterator.OfLong iterator(long epoch) {
        return new IndexIterator(size, LongUnaryOperator.identity());
    }
}
