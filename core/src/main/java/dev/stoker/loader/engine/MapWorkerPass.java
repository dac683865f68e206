package dev.stoker.loader.engine;

import dev.stoker.data.WorkerContext;
import dev.stoker.loader.Batch;
import dev.stoker.loader.LoaderException;
import java.time.Duration;

/**
 * A map-style pass on worker threads: batch {@code k} of the batch sampler is made by worker
 * {@code k % n} (as PyTorch deals its index batches out in turn), each worker making its batches
 * in order, one at a time, with at most {@code prefetchFactor} of them made and not yet taken.
 * Under an autotuner, a worker also waits for a permit to make a batch and for its batch's
 * position to come within the tuned window ({@link LiveSettings}); batch {@code k} is still
 * lane {@code k % n}'s, so the tuning changes when a batch is made, never what it holds.
 */
final class MapWorkerPass<T> extends WorkerPass<T> {
    private final MapBatches<T> source;
    private final IndexFeed feed;
    private final BatchPlan plan;
    private final DeliveryLog log;

    MapWorkerPass(MapBatches<T> source, BatchMaker maker, long epoch, BatchPlan plan, DeliveryLog log,
                  WorkerCrew crew, boolean ownsCrew, Duration grace) {
        super(source.settings(), maker, epoch, crew, ownsCrew, grace);
        this.source = source;
        this.plan = plan;
        this.log = log;
        this.feed = new IndexFeed(source.of(epoch, plan));
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
    void work(Worker worker, WorkerContext context) {
        int w = worker.id();
        for (long k = w; ; k += crew.size()) {
            // the indices first (arrays only, no data): a worker past the end must learn it even
            // while the tuned window holds it back, or the consumer would wait for it forever
            long[] indices = feed.get(k); // k: the position in the plan; batch: the index in the epoch
            if (indices == null) {
                return;
            }
            try {
                board.acquireSlot(w, k);
            } catch (InterruptedException e) {
                return; // the pass is closing
            }
            if (board.isClosed()) {
                return;
            }
            long batch = plan.original(k);
            try {
                live.beforeMake();
            } catch (InterruptedException e) {
                return;
            }
            worker.working(batch, indices);
            BoardResult result;
            try {
                Batch made = source.make(maker, context, epoch, batch, indices);
                if (made == null) {
                    log.delivered(batch); // nothing in it to deliver, now or after a resume
                }
                // Skipped keeps batch k's turn on the board
                result = made != null ? new BoardResult.Made(made) : BoardResult.Skipped.INSTANCE;
            } catch (LoaderException e) {
                result = new BoardResult.Failed(ConcurrentFetchDataset.refine(e).onWorker(worker.name()));
            } catch (RuntimeException | Error e) { // an Error from the dataset: reported at its batch, not lost
                result = new BoardResult.Failed(maker.failure("loading", epoch, batch, indices, -1, e)
                        .onWorker(worker.name()));
            } finally {
                worker.idle();
                live.afterMake();
            }
            if (!board.put(w, result)) {
                return;
            }
        }
    }
}
