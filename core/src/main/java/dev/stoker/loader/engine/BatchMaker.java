package dev.stoker.loader.engine;

import dev.stoker.collate.Collate;
import dev.stoker.collate.DefaultCollate;
import dev.stoker.data.BatchSlots;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.WorkerContext;
import dev.stoker.data.WorkerScope;
import dev.stoker.loader.Batch;
import dev.stoker.loader.LoaderException;
import dev.stoker.loader.SamplePolicy;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.MappedDataChangedError;
import dev.stoker.memory.MappedReads;
import dev.stoker.memory.PooledBuffer;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.StageClock;
import dev.stoker.metrics.Stages;
import dev.stoker.tensor.Tensor;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Assembles one batch in pooled memory, whatever the source and the recipe: the collate path
 * ({@link #collated}) and the fill path ({@link #filled}) each take the batch's buffers from the
 * pool, wrap them as a {@link Batch} and count it, or give every buffer back when building it
 * fails. The recipes ({@link MapRecipe}, {@link StreamRecipe}) say what goes into the memory;
 * this class is the one place that owns it. Every engine uses it, the caller's thread and the
 * workers alike, so it keeps no state between batches and is safe to call from several threads.
 *
 * <p>On the fill path the delivered samples take rows 0, 1, ... (under {@link SamplePolicy#SKIP}
 * a failed sample's row is written again by the next one) and the batch tensors are the first
 * rows of the buffers taken, which the batch still owns and gives back whole. A batch left with
 * no sample is not made: {@code null}, its memory already back in the pool.
 */
public final class BatchMaker {
    private final AtomicLong largestBatchBytes = new AtomicLong();
    private final String datasetName;
    private final BufferPool pool;
    private final StatsCounters stats;
    private final StageClock clock;
    private final SkippedSamples skips; // null under SamplePolicy.FAIL
    private final int fullRows;

    /**
     * @param fullRows the samples in a full batch, or 0 where batches have no one size (a user's
     *                 batch sampler): a shorter batch takes blocks sized for a full one ({@link BatchAssembly})
     */
    public BatchMaker(String datasetName, BufferPool pool, StatsCounters stats, StageClock clock, SamplePolicy policy,
                      int fullRows) {
        this.datasetName = datasetName;
        this.pool = pool;
        this.fullRows = fullRows;
        this.stats = stats;
        this.clock = clock;
        this.skips = policy == SamplePolicy.SKIP ? new SkippedSamples(datasetName, stats) : null;
    }

    /** The bytes of the largest batch made so far, 0 before the first: the general path's batch size. */
    public long largestBatchBytes() {
        return largestBatchBytes.get();
    }

    /** Where skipped samples are recorded, or {@code null} under {@link SamplePolicy#FAIL}. */
    SkippedSamples skips() {
        return skips;
    }

    /**
     * Runs {@code action}, the making of batch {@code k} of {@code epoch}, timed and under the
     * batch's seeded generator: with the loader's clock bound for the dataset's own {@link Stages}
     * spans (read, decode, transform, memory wait), and in {@code context}'s scope with the
     * generator of {@code seed} ({@link WorkerContext#currentRandom()}). Every engine makes its
     * batches through here.
     */
    <R> R timed(long epoch, long k, WorkerContext context, long seed, Supplier<R> action) {
        return Stages.call(new Stages.Scope(clock, epoch, k), () -> WorkerScope.call(context, seed, action));
    }

    /** {@link #timed}, telling {@code onDraw} when the action first draws from the batch's generator. */
    <R> R timed(long epoch, long k, WorkerContext context, long seed, Supplier<R> action, Runnable onDraw) {
        return Stages.call(new Stages.Scope(clock, epoch, k), () -> WorkerScope.call(context, seed, action, onDraw));
    }

    /**
     * Batch {@code k} of {@code epoch} collated from {@code samples} into pooled memory.
     * {@code fetchStart} is when the fetch of the samples began ({@code System.nanoTime()}): the
     * fetch span starts there, before the dataset's own spans inside it, so that a trace nests them.
     */
    <T> Batch collated(Collate<T> collate, long epoch, long k, long[] indices, List<T> samples, long fetchStart) {
        BatchAssembly memory = new BatchAssembly(pool, "batch " + k + " of epoch " + epoch, samples.size(), fullRows);
        boolean done = false;
        try {
            long start = System.nanoTime();
            Object data = collate.collate(samples, memory);
            MappedReads.deliverPendingFault(); // see failure
            long end = System.nanoTime();
            Batch batch = new Batch(epoch, k, indices, data, memory.buffers());
            loaded(samples.size(), noteBytes(memory.buffers()), epoch, k, fetchStart, start, end);
            done = true;
            return batch;
        } catch (RuntimeException | Error e) {
            throw failure("collating", epoch, k, indices, -1, e);
        } finally {
            if (!done) {
                memory.release();
            }
        }
    }

    /** What a fill wrote: the rows delivered (the first ones) and the indices the batch names. */
    record Rows(int count, long[] indices) {}

    /** Writes the samples of one batch into the rows of {@code slots}; see {@link #filled}. */
    @FunctionalInterface
    interface RowWriter {
        /**
         * @return the rows written, from row 0 on
         * @throws LoaderException naming the sample whose fill failed
         */
        Rows write(BatchSlots slots);
    }

    /**
     * Batch {@code k} of {@code epoch} on the fill path: the tensors of {@code layout} for
     * {@code n} rows from the pool, written by {@code writer}, cut to the rows it wrote and
     * arranged as {@link DefaultCollate} would have arranged the samples; {@code null} when it
     * wrote none. {@code fetchStart} as for {@link #collated}.
     */
    Batch filled(SampleLayout layout, long epoch, long k, long[] indices, int n, long fetchStart, RowWriter writer) {
        BatchAssembly memory = new BatchAssembly(pool, "batch " + k + " of epoch " + epoch, n, fullRows);
        boolean done = false;
        try {
            Tensor[] tensors = new Tensor[layout.size()];
            for (int f = 0; f < tensors.length; f++) {
                SampleLayout.Field field = layout.field(f);
                tensors[f] = memory.allocate(field.dtype(), field.shape().prepend(n));
            }
            Rows rows = writer.write(new BatchSlots(layout, Arrays.asList(tensors)));
            MappedReads.deliverPendingFault(); // see failure: a map fault compiled code deferred is this batch's
            if (rows.count() == 0) {
                return null; // every sample was skipped; the finally gives the memory back
            }
            if (rows.count() < n) { // the rows past the delivered ones hold nothing, or half a failed sample
                for (int f = 0; f < tensors.length; f++) {
                    tensors[f] = tensors[f].slice(0, rows.count());
                }
            }
            Batch batch = new Batch(epoch, k, rows.indices(), arrange(layout, tensors), memory.buffers());
            long end = System.nanoTime();
            loaded(rows.count(), noteBytes(memory.buffers()), epoch, k, fetchStart, end, end);
            done = true;
            return batch;
        } catch (RuntimeException e) {
            if (e instanceof LoaderException) {
                throw e;
            }
            throw failure("allocating", epoch, k, indices, -1, e);
        } catch (Error e) {
            if (MappedReads.isFault(e)) { // met by a read of this batch, reported late: see failure
                throw failure("filling", epoch, k, indices, -1, e);
            }
            throw e;
        } finally {
            if (!done) {
                memory.release();
            }
        }
    }

    /** {@code "field 'image' of "}, naming the field the failed fill was writing, when it asked for one. */
    static String fieldOf(BatchSlots slots) {
        String field = slots.lastField();
        return field == null ? "" : "field '" + field + "' of ";
    }

    /** The batch's value as {@link DefaultCollate} makes it of the equivalent samples. */
    private static Object arrange(SampleLayout layout, Tensor[] tensors) {
        return switch (layout.form()) {
            case MAP -> {
                Map<String, Object> out = new LinkedHashMap<>();
                for (int f = 0; f < tensors.length; f++) {
                    out.put(layout.field(f).name(), tensors[f]);
                }
                yield out;
            }
            case LIST -> Collections.unmodifiableList(Arrays.asList((Object[]) tensors.clone()));
            case TENSOR -> tensors[0];
        };
    }

    /** The batch's bytes, kept when the largest so far. */
    private long noteBytes(List<PooledBuffer> buffers) {
        long bytes = 0;
        for (PooledBuffer b : buffers) {
            bytes += b.byteSize();
        }
        if (bytes > largestBatchBytes.get()) { // a read per batch; a write only when it grows
            largestBatchBytes.accumulateAndGet(bytes, Math::max);
        }
        return bytes;
    }

    /**
     * Counts a batch made, adds its fetch and collate spans to the clock and tells the clock's batch
     * listeners: the once-per-batch hook (one volatile read when nobody listens).
     */
    private void loaded(int rows, long bytes, long epoch, long k, long fetchStart, long fetchEnd, long collateEnd) {
        stats.loaded(rows);
        clock.record(Stage.FETCH, fetchStart, fetchEnd, epoch, k);
        if (collateEnd > fetchEnd) {
            clock.record(Stage.COLLATE, fetchEnd, collateEnd, epoch, k);
        }
        clock.batchMade(epoch, k, rows, bytes, fetchStart, Math.max(fetchEnd, collateEnd));
    }

    /** Counts a failed batch and describes it; see {@link LoaderException}. */
    LoaderException failure(String what, long epoch, long k, long[] indices, long failedIndex, Throwable cause) {
        stats.failed();
        return new LoaderException(datasetName, what, epoch, k, indices, failedIndex, named(cause));
    }

    /**
     * {@code cause}, or, when it is the JVM's nameless report of a fault on a memory-mapped file
     * that was cut short (an {@code InternalError} that no reader's catch named: one that read the
     * map without a catch, or whose fault compiled code reported after the catch had ended), a
     * {@link MappedDataChangedError} that says what happened. The batch that met it is named by
     * the {@link LoaderException} around it: each batch ends with
     * {@link MappedReads#deliverPendingFault()}, so a deferred fault is not reported at a later batch.
     */
    private Throwable named(Throwable cause) {
        if (!MappedReads.isFault(cause)) {
            return cause;
        }
        return new MappedDataChangedError("a file that dataset '" + datasetName + "' reads through a memory map"
                + " changed while it was mapped: it was cut short (truncated, or is being rewritten in place), and a"
                + " read past its new end faulted (" + cause.getMessage() + "; the reader did not say which file)."
                + " Reopen the dataset once its files are whole; to replace a file that is being read, write the new"
                + " one beside it and rename it over the old", cause);
    }
}
