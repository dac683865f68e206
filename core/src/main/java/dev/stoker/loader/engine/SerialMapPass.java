package dev.stoker.loader.engine;

import dev.stoker.data.WorkerContext;
import dev.stoker.loader.Batch;
import dev.stoker.loader.LoaderException;
import java.util.Iterator;

/**
 * A map-style pass in the consumer's thread: the batch sampler's index batches, each fetched and
 * collated (or filled) when the consumer asks for it. The consumer's thread is worker 0 of 1.
 */
final class SerialMapPass<T> implements BatchSource {
    private final MapBatches<T> source;
    private final BatchMaker maker;
    private final long epoch;
    private final BatchPlan plan;
    private final DeliveryLog log;
    private final WorkerContext context;
    private Iterator<long[]> batches;
    private long k;
    private volatile boolean closed; // also set by a close() from another thread

    SerialMapPass(MapBatches<T> source, BatchMaker maker, long epoch, BatchPlan plan, DeliveryLog log) {
        this.source = source;
        this.maker = maker;
        this.epoch = epoch;
        this.plan = plan;
        this.log = log;
        this.context = source.settings().context(0, 1, epoch);
    }

    @Override
    public Batch next() {
        if (closed) {
            return null;
        }
        if (batches == null) {
            batches = source.of(epoch, plan);
        }
        while (!closed && batches.hasNext()) {
            long[] indices = batches.next();
            long position = plan.original(k++); // k advances also when the batch fails
            Batch batch;
            try {
                batch = source.make(maker, context, epoch, position, indices, BatchHelp.NONE);
            } catch (LoaderException e) {
                throw ConcurrentFetchDataset.refine(e);
            }
            if (batch != null) {
                return batch;
            }
            // every sample of it was skipped (SamplePolicy.SKIP): on to the next batch
            log.delivered(position);
        }
        close();
        return null;
    }

    @Override
    public void received(Batch batch) {
        log.delivered(batch.index());
    }

    @Override
    public void received(RuntimeException failure) {
        log.failed(epoch, failure);
    }

    @Override
    public void close() {
        closed = true;
    }
}
