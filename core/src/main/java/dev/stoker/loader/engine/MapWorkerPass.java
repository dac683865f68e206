package dev.stoker.loader.engine;

import dev.stoker.data.WorkerContext;
import dev.stoker.loader.Batch;
import dev.stoker.loader.LoaderException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A map-style pass on worker threads: batch {@code k} of the batch sampler is made by worker
 * {@code k % n} (as PyTorch deals its index batches out in turn), each worker making its batches
 * in order, one at a time, with at most {@code prefetchFactor} of them made and not yet taken.
 * Under an autotuner, a worker also waits for a permit to make a batch and for its batch's
 * position to come within the tuned window ({@link LiveSettings}); batch {@code k} is still
 * lane {@code k % n}'s, so the tuning changes when a batch is made, never what it holds. At 0
 * workers the consumer's thread makes the batch it waits for, in its lane's context.
 *
 * <p>Without an autotuner the first batch of each lane is made by all the workers, in the lane's
 * context ({@link FirstBatches}): the pass's first batch comes about {@code n} times sooner.
 */
final class MapWorkerPass<T> extends WorkerPass<T> {
    private final MapBatches<T> source;
    private final IndexFeed feed;
    private final BatchPlan plan;
    private final DeliveryLog log;
    // A tuned pass that may run at 0 workers: per lane, the last position claimed by the lane or by
    // the consumer's thread making it itself (a CAS from k - n to k: exactly one of them makes k).
    // Null otherwise, and the feed is read once per position as before.
    private final AtomicLongArray claimed;
    // Each lane's first batch made by all the workers (FirstBatches); none under an autotuner, whose
    // lanes wait for permits and whose consumer's thread may make batches.
    private final FirstBatches help;

    MapWorkerPass(MapBatches<T> source, BatchMaker maker, long epoch, BatchPlan plan, DeliveryLog log,
                  WorkerCrew crew, boolean ownsCrew, Duration grace) {
        super(source.settings(), maker, epoch, crew, ownsCrew, grace);
        this.source = source;
        this.plan = plan;
        this.log = log;
        this.feed = new IndexFeed(source.of(epoch, plan));
        if (live.consumerMayMake()) {
            claimed = new AtomicLongArray(crew.size());
            for (int w = 0; w < crew.size(); w++) {
                claimed.set(w, w - crew.size());
            }
        } else {
            claimed = null;
        }
        this.help = live.tuned() ? FirstBatches.NONE : source.helpFor(crew.size(), maker);
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
        try {
            help.helpBefore(w); // the lanes before this one: their first batches
            makeBatches(worker, context);
        } catch (InterruptedException e) {
            // the pass is closing
        } finally {
            help.lane(w).close(); // whatever became of this lane's first batch: nobody waits for it
        }
    }

    private void makeBatches(Worker worker, WorkerContext context) throws InterruptedException {
        int w = worker.id();
        int n = crew.size();
        for (long k = w; ; k += n) {
            if (k == w + n) { // this lane's first batch is behind it (made, skipped or made elsewhere)
                help.lane(w).close();
                help.helpAfter(w); // the lanes after this one: their first batches
            }
            // the indices first (arrays only, no data): a worker past the end must learn it even
            // while the tuned window holds it back, or the consumer would wait for it forever
            long[] indices = claimed == null ? feed.get(k) : feed.hold(k); // k: the position in the plan
            if (indices == null) {
                return;
            }
            if (indices == IndexFeed.TAKEN) {
                continue; // the consumer's thread made it
            }
            try {
                if (!board.acquireSlot(w, k)) {
                    continue; // the consumer's thread made it meanwhile
                }
            } catch (InterruptedException e) {
                return; // the pass is closing
            }
            if (board.isClosed()) {
                return;
            }
            try {
                if (claimed == null) {
                    live.beforeMake();
                } else {
                    long position = k;
                    if (!live.beforeMake(() -> board.isTaken(position))) {
                        board.releaseSlot(w); // the consumer's thread made it while this lane waited
                        continue;
                    }
                }
            } catch (InterruptedException e) {
                return;
            }
            if (claimed != null) {
                if (!claimed.compareAndSet(w, k - n, k)) { // the consumer's thread took it first
                    live.afterMake();
                    board.releaseSlot(w);
                    continue;
                }
                feed.forget(k);
            }
            long batch = plan.original(k); // the batch's index in the epoch
            worker.working(batch, indices);
            BoardResult result;
            try {
                result = make(context, batch, indices, worker.name(), k == w ? help.lane(w) : BatchHelp.NONE);
            } finally {
                worker.idle();
                live.afterMake();
            }
            if (!board.put(w, result)) {
                return;
            }
        }
    }

    /** Batch {@code batch} made on this thread, as a result for the board; {@code who} names the thread in errors. */
    private BoardResult make(WorkerContext context, long batch, long[] indices, String who, BatchHelp help) {
        try {
            Batch made = source.make(maker, context, epoch, batch, indices, help);
            if (made == null) {
                log.delivered(batch); // nothing in it to deliver, now or after a resume
            }
            // Skipped keeps batch k's turn on the board
            return made != null ? new BoardResult.Made(made) : BoardResult.Skipped.INSTANCE;
        } catch (LoaderException e) {
            LoaderException refined = ConcurrentFetchDataset.refine(e);
            return new BoardResult.Failed(who == null ? refined : refined.onWorker(who));
        } catch (RuntimeException | Error e) { // an Error from the dataset: reported at its batch, not lost
            LoaderException failure = maker.failure("loading", epoch, batch, indices, -1, e);
            return new BoardResult.Failed(who == null ? failure : failure.onWorker(who));
        }
    }

    /**
     * At 0 workers (a tuned pass that may run so), the consumer makes the batch it waits for
     * itself, in its lane's name (the same context, so the same batch), unless its lane has made
     * it or is making it: one of the two claims position {@code k} of lane {@code k % n}.
     */
    @Override
    BoardResult madeHere(long k) {
        if (claimed == null || live.workers() > 0) {
            return null;
        }
        int n = crew.size();
        int w = (int) (k % n);
        if (board.hasResult(w)) {
            return null;
        }
        long[] indices = feed.hold(k);
        if (indices == null || indices == IndexFeed.TAKEN || !claimed.compareAndSet(w, k - n, k)) {
            return null; // the end, or its lane has it: wait for the board
        }
        feed.forget(k);
        BoardResult result = make(settings.context(w, n, epoch), plan.original(k), indices, null, BatchHelp.NONE);
        board.tookItself(w);
        return result;
    }
}
