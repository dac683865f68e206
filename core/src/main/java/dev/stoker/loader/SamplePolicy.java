package dev.stoker.loader;

/**
 * What a {@link DataLoader} does with a sample that cannot be read: its {@code get} or
 * {@code fill} (or a stream's {@code next()}) threw an {@link Exception}. An {@link Error} is never
 * skipped: it fails the batch under either policy.
 *
 * <pre>{@code
 * DataLoader.builder(images).batchSize(32).onBadSample(SamplePolicy.SKIP).build();
 * ...
 * LoaderStats stats = loader.stats();
 * System.out.println(stats.skippedSamples() + " bad samples, last: " + stats.lastSkipped());
 * }</pre>
 */
public enum SamplePolicy {
    /**
     * The batch that needed the sample fails with a {@link LoaderException} naming it; the pass
     * goes on with the next batch (the default, as in PyTorch).
     */
    FAIL,

    /**
     * The sample is left out of its batch, which is built from the others and so is smaller (its
     * {@link Batch#indices()} lists only the samples it holds); a batch whose every sample failed
     * is not delivered at all, and the pass goes on with the next one (batch indices then have a
     * gap). Each skip is counted in {@link LoaderStats#skippedSamples()}, the last few are kept in
     * {@link LoaderStats#lastSkipped()}, and one in 100 is logged at
     * {@code WARNING} (the first, the 101st, ...) through {@link System.Logger}
     * {@code dev.stoker.loader.DataLoader}, naming the dataset, the index and the cause.
     *
     * <p>A dataset with its own {@code getBatch} or {@code fillBatch} is still called once per
     * batch; when that call fails, the batch is fetched again sample by sample with {@code get} or
     * {@code fill} to find the bad ones. A streaming dataset's sample whose {@code next()} throws
     * is skipped and reading goes on, so its batches stay full: the stream is asked
     * {@code hasNext()} again, and only an exception from {@code hasNext()} (or from
     * {@code open}), or 1,000 failures in a row from {@code next()}
     * (a stream that does not move past its bad sample), fails the stream as under {@link #FAIL}.
     * A failing collate is not a bad sample: it fails the batch.
     */
    SKIP
}
