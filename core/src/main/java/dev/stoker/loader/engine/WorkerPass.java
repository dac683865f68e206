package dev.stoker.loader.engine;

import dev.stoker.data.WorkerContext;
import dev.stoker.data.WorkerScope;
import dev.stoker.loader.Batch;
import dev.stoker.loader.LoaderException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One pass of the {@link WorkerEngine}: the job every worker runs ({@link #run}, then
 * {@link #work} in a subclass) and the consumer's side ({@link #next}, {@link #close}), joined by
 * a {@link ResultBoard}.
 *
 * <p>Each worker runs its part inside a {@link WorkerScope} with its {@link WorkerContext} for the
 * epoch and its own generator ({@link WorkerContext#randomSeed()}), after the loader's
 * {@code workerInit} hook when that has not run in this thread yet; the fetches of each batch get
 * the batch's generator (see {@link WorkerContext}).
 *
 * <p>Failures: a batch that fails reaches the consumer at its place, as the
 * {@link LoaderException} that the recipe made, naming the worker; the pass goes on. A
 * failure that leaves a worker unable to go on (its {@code workerInit} hook threw) ends the pass
 * when the consumer reaches it, so that no batch goes missing without a word. A batch not ready
 * within the timeout, or an interrupted consumer, ends the pass too.
 *
 * <p>Closing, early or at the end: the board closes the batches made and not taken (and any that
 * a worker finishes later), the workers are interrupted, and the close waits for them at most the
 * grace period; a crew of its own (workers that do not persist) is stopped.
 */
abstract class WorkerPass<T> implements BatchSource, Worker.Job {
    final LoaderSettings settings;
    final BatchMaker maker;
    final long epoch;
    final WorkerCrew crew;
    final ResultBoard board;
    final LiveSettings live;
    private final boolean ownsCrew;
    private final Duration grace;
    private final CountDownLatch finished;
    private final long timeoutNanos;
    private long position; // results taken so far: the position of the next one in the epoch
    private long batchesTaken;
    private boolean tookOne; // whether this pass has handed the consumer a result yet
    private volatile boolean closed; // also set by a close() from another thread (DataLoader.close)

    WorkerPass(LoaderSettings settings, BatchMaker maker, long epoch, WorkerCrew crew, boolean ownsCrew,
               Duration grace) {
        this.settings = settings;
        this.maker = maker;
        this.epoch = epoch;
        this.crew = crew;
        this.ownsCrew = ownsCrew;
        this.grace = grace;
        this.live = crew.live();
        this.board = new ResultBoard(crew.size(), live, settings.inOrder());
        live.attach(board);
        this.finished = new CountDownLatch(crew.size());
        this.timeoutNanos = settings.timeout().toNanos();
    }

    /** Worker {@code worker}'s share of the pass: make batches and {@link ResultBoard#put} them until done. */
    abstract void work(Worker worker, WorkerContext context);

    /**
     * The result at {@code position} made in the consumer's thread, or {@code null} to wait for the
     * workers' (the default): a tuned map-style pass at 0 workers makes its batches here.
     */
    BoardResult madeHere(long position) {
        return null;
    }

    /** The batch as delivered; a stream's batches are numbered by the order of delivery. */
    Batch delivered(Batch batch, long batchesBefore) {
        return batch;
    }

    @Override
    public final void run(Worker worker) {
        WorkerContext context = settings.context(worker.id(), crew.size(), epoch);
        try {
            WorkerScope.run(context, context.randomSeed(), () -> {
                try {
                    worker.initOnce(settings.workerInit(), context);
                } catch (RuntimeException e) {
                    board.put(worker.id(), new BoardResult.Fatal(maker.failure("running workerInit before", epoch,
                            worker.id(), new long[0], -1, e).onWorker(worker.name())));
                    return;
                }
                work(worker, context);
            });
        } catch (Throwable t) { // an Error, or a bug: say so at this worker's turn rather than lose its batches
            board.put(worker.id(), new BoardResult.Fatal(maker.failure("loading", epoch, worker.id(), new long[0], -1,
                    t).onWorker(worker.name())));
        } finally {
            board.end(worker.id());
            finished.countDown();
        }
    }

    /**
     * The next batch, passing over those with nothing in them; {@code null} at the end.
     *
     * @throws LoaderException for a failed batch (the pass goes on), or one that ends the pass
     */
    @Override
    public final Batch next() {
        while (true) {
            BoardResult result = nextResult();
            if (result == null) {
                return null;
            }
            position++;
            switch (result) {
                case BoardResult.Made(Batch batch) -> {
                    return delivered(batch, batchesTaken++);
                }
                case BoardResult.Skipped() -> {
                    // nothing in it to deliver: on to the next turn
                }
                case BoardResult.Failed(LoaderException e) -> throw e;
                case BoardResult.Fatal(LoaderException e) -> {
                    close();
                    throw e;
                }
            }
        }
    }

    /** The next result on the board, or {@code null} at the end (the pass is then closed). */
    private BoardResult nextResult() {
        if (closed) {
            return null;
        }
        BoardResult result;
        long asked = System.nanoTime();
        try {
            result = madeHere(position);
            if (result == null) {
                result = board.take(timeoutNanos);
            }
        } catch (ResultBoard.Timeout t) {
            LoaderException e = timedOut(t.worker);
            close();
            throw e;
        } catch (InterruptedException ie) {
            LoaderException e = maker.failure("waiting for", epoch, position, new long[0], -1, ie);
            close();
            Thread.currentThread().interrupt();
            throw e;
        }
        if (result == null) {
            close();
        } else {
            long now = System.nanoTime();
            live.taken(now - asked, now, !tookOne); // the tuner's signal, and its tick
            tookOne = true;
        }
        return result;
    }

    @Override
    public final int ready() {
        return board.ready();
    }

    /** The error for a batch not ready in time: which worker holds it up, on which samples, and where. */
    private LoaderException timedOut(int awaited) {
        long now = System.nanoTime();
        List<Worker> suspects = new ArrayList<>();
        if (awaited >= 0) {
            suspects.add(crew.worker(awaited));
        } else {
            for (Worker w : crew.workers()) {
                if (w.activity() != null) {
                    suspects.add(w);
                }
            }
            suspects.sort(Comparator.comparingLong(w -> {
                WorkerActivity a = w.activity();
                return a == null ? Long.MAX_VALUE : a.sinceNanos();
            }));
            if (suspects.isEmpty()) {
                suspects.addAll(crew.workers());
            }
        }
        Worker main = suspects.getFirst();
        WorkerActivity a = main.activity();
        StringBuilder detail = new StringBuilder();
        for (Worker w : suspects) {
            WorkerActivity wa = w.activity();
            detail.append(detail.isEmpty() ? "" : "; ").append(w.name())
                    .append(wa == null ? " was not making a batch" : " has been making " + wa.describe(now));
        }
        TimeoutException cause = new TimeoutException("no batch within " + settings.timeout().toMillis() + " ms: "
                + detail + " (this exception's stack trace is " + main.name() + "'s at that moment)");
        cause.setStackTrace(main.thread().getStackTrace());
        long batch = a != null ? a.batch() : position;
        long[] indices = a != null ? a.indices() : new long[0];
        return maker.failure("waiting for", epoch, batch, indices, -1, cause).onWorker(main.name());
    }

    /**
     * Ends the pass; safe from any thread. A second caller (the consumer at the end while the
     * loader closes from another thread) waits for the first one's stop rather than return early.
     */
    @Override
    public final synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        board.close();
        live.detach(board);
        long deadline = System.nanoTime() + grace.toNanos();
        if (finished.getCount() > 0) {
            crew.interruptAll(); // stop early: sleeps, reads and waits for room end now
        }
        boolean done;
        try {
            done = finished.await(grace.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            done = false;
        }
        if (ownsCrew) {
            crew.stop(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        } else if (!done) {
            System.getLogger(WorkerPass.class.getName()).log(System.Logger.Level.WARNING, () -> "closing epoch "
                    + epoch + " of " + settings.datasetName() + ": a worker is still on it after "
                    + grace.toMillis() + " ms; the next pass waits for it");
        }
    }
}
