package dev.stoker.cli;

import dev.stoker.loader.Batch;
import dev.stoker.tensor.Tensor;
import java.util.List;
import java.util.Map;

/**
 * The benchmark's stand-in for a training step, the same as the PyTorch side's: for every tensor
 * of the batch, read element 0 of every sample ({@code t.reshape(n, -1)[:, 0].sum()}). It touches
 * one value per sample per tensor, so a loader that hands out batches it has not written yet, or
 * memory that is gone, cannot go unnoticed; it does not read the whole batch.
 */
final class NullConsumer {
    /** Keeps the sums alive so that the JIT cannot drop the reads. */
    @SuppressWarnings("unused")
    private static volatile double sink;

    private NullConsumer() {}

    /** Reads the batch as above; returns its number of samples (the first axis of its tensors). */
    static long consume(Batch batch) {
        long[] samples = {0};
        double sum = visit(batch.data(), samples);
        sink = sum;
        return samples[0];
    }

    private static double visit(Object value, long[] samples) {
        double sum = 0;
        switch (value) {
            case Tensor t -> {
                if (t.shape().rank() == 0) {
                    return t.getDouble(0);
                }
                long n = t.shape().dim(0);
                long row = n == 0 ? 0 : t.elements() / n;
                for (long i = 0; row > 0 && i < n; i++) {
                    sum += t.getDouble(i * row);
                }
                if (samples[0] == 0) {
                    samples[0] = n;
                }
            }
            case Map<?, ?> map -> {
                for (Object v : map.values()) {
                    sum += visit(v, samples);
                }
            }
            case List<?> list -> {
                for (Object v : list) {
                    sum += visit(v, samples);
                }
            }
            case null, default -> {
                // Not a tensor (a string, a key): nothing to read, as on the PyTorch side.
            }
        }
        return sum;
    }
}
