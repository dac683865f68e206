package dev.stoker.data;

/**
 * A dataset read as a stream, like PyTorch's {@code IterableDataset}: tar shards, a remote
 * bucket, a generator. There is no random access; each worker opens its own stream and reads
 * its share.
 *
 * <p>{@link #open} is called once per worker per epoch with that worker's {@link WorkerContext};
 * the dataset decides which part of the data that worker reads (for example shards
 * {@code i} with {@code i % globalWorkers() == globalWorkerId()}), so that no sample is read twice.
 *
 * <pre>{@code
 * StreamingDataset<Long> evens = ctx -> SampleStream.of(
 *         LongStream.range(0, 1000).filter(i -> i % ctx.globalWorkers() == ctx.globalWorkerId())
 *                 .boxed().iterator());
 * }</pre>
 */
@FunctionalInterface
public interface StreamingDataset<T> {

    /** Opens this worker's share of the data for one epoch. */
    SampleStream<T> open(WorkerContext context);

    /** A name for error messages and reports. */
    default String name() {
        String simple = getClass().getSimpleName();
        return simple.isEmpty() ? getClass().getName() : simple;
    }
}
