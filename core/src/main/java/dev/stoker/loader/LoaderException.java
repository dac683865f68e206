package dev.stoker.loader;

import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A batch could not be loaded: the dataset threw while fetching a sample, the stream failed, or
 * collate rejected the samples. The message names the dataset, the batch and its epoch, the
 * sample indices of the batch and, when one sample's fetch failed, that sample's index; the
 * original exception is the cause. The batch's memory has already gone back to the pool.
 *
 * <pre>
 * dataset 'Images': fetching sample 1207 for batch 3 of epoch 0 failed: UncheckedIOException:
 * truncated JPEG (batch samples [88, 1207, 3, 940])
 * </pre>
 *
 * <p>A batch loaded by a worker thread also names the worker, at the end:
 * {@code ... (batch samples [88, 1207, 3, 940]) (worker stoker-worker-2)}; see {@link #worker()}.
 *
 * <p>With a map-style dataset the pass goes on after a failed batch: the next call to
 * {@code next()} loads the batch after it, as PyTorch does in a single process (and with workers
 * too). A batch that was not ready within the loader's {@code timeout} ends the pass.
 */
public final class LoaderException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private static final int SHOWN = 16;

    private final String dataset;
    private final long epoch;
    private final long batch;
    private final long[] indices;
    private final long failedIndex;
    private final String worker; // null when not loaded by a worker thread

    /**
     * The failure of batch {@code batch} of {@code epoch}, as the loader's engine reports it.
     *
     * @param dataset     the dataset's name
     * @param what        the failed step, e.g. {@code "fetching sample 17 for"} or {@code "collating"}
     * @param indices     the batch's sample indices (empty for a streaming dataset)
     * @param failedIndex the one sample whose fetch failed, or -1 when not known or not one
     */
    public LoaderException(String dataset, String what, long epoch, long batch, long[] indices, long failedIndex,
                    Throwable cause) {
        super("dataset '" + dataset + "': " + what + " batch " + batch + " of epoch " + epoch + " failed: "
                + describe(cause) + (indices.length == 0 ? "" : " (batch samples " + show(indices) + ")"), cause);
        this.dataset = dataset;
        this.epoch = epoch;
        this.batch = batch;
        this.indices = indices.clone();
        this.failedIndex = failedIndex;
        this.worker = null;
    }

    private LoaderException(LoaderException e, String worker) {
        super(e.getMessage() + " (worker " + worker + ")", e.getCause());
        this.dataset = e.dataset;
        this.epoch = e.epoch;
        this.batch = e.batch;
        this.indices = e.indices;
        this.failedIndex = e.failedIndex;
        this.worker = worker;
        setStackTrace(e.getStackTrace());
        for (Throwable s : e.getSuppressed()) {
            addSuppressed(s);
        }
    }

    /**
     * The same failure, naming the worker thread that met it.
     *
     * @param workerName the worker thread's name, e.g. {@code stoker-worker-2}
     * @return a copy of this exception whose message and {@link #worker()} name the worker
     */
    public LoaderException onWorker(String workerName) {
        return new LoaderException(this, workerName);
    }

    private static String describe(Throwable t) {
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    private static String show(long[] indices) {
        if (indices.length <= SHOWN) {
            return Arrays.toString(indices);
        }
        String head = Arrays.toString(Arrays.copyOf(indices, SHOWN));
        return head.substring(0, head.length() - 1) + ", ... " + indices.length + " in all]";
    }

    /** The name of the dataset that failed. */
    public String datasetName() {
        return dataset;
    }

    public long epoch() {
        return epoch;
    }

    /** The failed batch's position in its epoch, from 0. */
    public long batchIndex() {
        return batch;
    }

    /** The sample indices of the failed batch (empty for a streaming dataset). */
    public long[] indices() {
        return indices.clone();
    }

    /** The index of the sample whose fetch failed, when one sample's fetch did. */
    public OptionalLong failedIndex() {
        return failedIndex < 0 ? OptionalLong.empty() : OptionalLong.of(failedIndex);
    }

    /** The name of the worker thread that was loading the batch ({@code stoker-worker-2}), when a worker was. */
    public Optional<String> worker() {
        return Optional.ofNullable(worker);
    }
}
