package dev.stoker.loader.engine;

import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.loader.Batch;
import dev.stoker.loader.LoaderException;
import dev.stoker.loader.StreamState;
import java.time.Duration;
import java.util.List;

/**
 * A streaming pass on worker threads, with PyTorch's {@code IterableDataset} semantics: each
 * worker opens its own stream with its {@link WorkerContext} and makes batches of consecutive
 * samples of it, so each worker ends with its own short batch (unless dropLast). In order, the
 * consumer takes the workers' batches in turn (worker 0's first, worker 1's first, ..., skipping
 * workers whose stream is over); batches are numbered in the order they are delivered.
 *
 * <p>A stream that fails is closed and read no further: the failure reaches the consumer at that
 * worker's turn, naming the worker, and the other workers go on. Positions in its message (sample
 * and batch) count within that worker's stream. Under {@link SamplePolicy#SKIP} a sample whose
 * {@code next()} throws is left out and the stream read on ({@link StreamReader}).
 *
 * <p>Resume: a pass that starts from a restored {@link StreamState} has each worker skip the
 * samples its stream had delivered ({@link SampleStream#skip}) and count its batches on from
 * there, leaves out the workers whose stream was over, and starts at the saved turn. Each batch
 * and failure carries a {@link StreamMark} to the consumer, so the {@link StreamLog} counts what
 * was delivered, not what was read ahead.
 */
final class StreamWorkerPass<T> extends WorkerPass<T> {
    private final StreamBatches<T> source;
    private final StreamState start;
    private final StreamMarks marks;

    StreamWorkerPass(StreamBatches<T> source, BatchMaker maker, long epoch, StreamLog log, WorkerCrew crew,
                     boolean ownsCrew, Duration grace) {
        super(source.settings(), maker, epoch, crew, ownsCrew, grace);
        this.source = source;
        this.start = log.start();
        this.marks = new StreamMarks(log);
        board.startAt(start.turn());
    }

    @Override
    Batch delivered(Batch batch, long batchesBefore) {
        Batch numbered = new Batch(batch.epoch(), start.delivered() + batchesBefore, batch.indices(), batch.data(),
                batch.buffers());
        marks.replace(batch, numbered);
        return numbered;
    }

    @Override
    public void received(Batch batch) {
        marks.handedOut(batch, true);
    }

    @Override
    public void received(RuntimeException failure) {
        marks.handedOut(failure, false);
    }

    @Override
    void work(Worker worker, WorkerContext context) {
        int w = worker.id();
        if (start.ended()[w]) {
            return; // over before the stop
        }
        long skip = start.samples()[w];
        long k = start.batches()[w];
        SampleStream<T> stream;
        try {
            stream = source.open(context, start, w);
        } catch (StreamOpening.Failure f) {
            fail(w, k, skip, maker.failure(f.step, epoch, k, new long[0], -1, f.getCause()).onWorker(worker.name()));
            return;
        }
        try {
            read(worker, context, new StreamReader<>(stream, maker.skips(), skip), k);
        } finally {
            try {
                stream.close();
            } catch (RuntimeException e) {
                board.put(w, new BoardResult.Failed(maker.failure("closing the stream after", epoch, 0, new long[0],
                        -1, e).onWorker(worker.name())));
            }
        }
    }

    /**
     * What one turn of a worker made: a batch, a batch's failure, a failed read (which ends the
     * stream), or nothing (the stream is over, or every sample of the batch was skipped);
     * {@code last} when the stream ends with it.
     */
    private sealed interface Turn {
        boolean last();
    }

    private record Made(Batch batch, boolean last) implements Turn {}

    private record Failed(LoaderException failure, boolean last) implements Turn {}

    private record ReadFailure(LoaderException failure) implements Turn {
        @Override
        public boolean last() {
            return true;
        }
    }

    private record Nothing(boolean last) implements Turn {}

    /** Reads the samples of batch {@code k} and makes the batch (in the batch's worker scope). */
    private Turn make(StreamReader<T> reader, long k, int size) {
        long started = System.nanoTime();
        List<T> samples;
        try {
            samples = reader.read(size, epoch, k);
        } catch (RuntimeException | Error e) { // an Error too: the report names the sample's position
            return new ReadFailure(maker.failure("reading sample " + reader.position() + " of the stream for", epoch,
                    k, new long[0], -1, e));
        }
        boolean last = samples.size() < size;
        if (last && (samples.isEmpty() || settings.dropLast())) {
            return new Nothing(true);
        }
        try {
            Batch made = source.make(maker, epoch, k, samples, started);
            return made != null ? new Made(made, last) : new Nothing(last);
        } catch (LoaderException e) {
            return new Failed(e, last);
        }
    }

    private void fail(int w, long k, long position, LoaderException failure) {
        marks.mark(failure, new StreamMark(w, position, k, true));
        board.put(w, new BoardResult.Failed(failure));
    }

    private void read(Worker worker, WorkerContext context, StreamReader<T> reader, long firstBatch) {
        int w = worker.id();
        int size = settings.batchSize();
        for (long k = firstBatch; ; k++) {
            try {
                board.acquireSlot(w);
            } catch (InterruptedException e) {
                return;
            }
            if (board.isClosed()) {
                return;
            }
            try {
                live.beforeMake();
            } catch (InterruptedException e) {
                return;
            }
            worker.working(k, new long[0]);
            long batch = k;
            Turn turn;
            try {
                turn = source.timed(maker, context, epoch, batch, () -> make(reader, batch, size));
            } finally {
                worker.idle();
                live.afterMake();
            }
            // a batch that failed to collate does not end the stream: the next batch follows it
            BoardResult result;
            switch (turn) {
                case ReadFailure(LoaderException failure) -> {
                    fail(w, k, reader.position(), failure.onWorker(worker.name()));
                    return;
                }
                case Nothing(boolean last) -> {
                    board.releaseSlot(w);
                    if (last) {
                        return;
                    }
                    continue; // the next batch keeps its own number, as after a resume
                }
                case Made(Batch made, boolean last) -> {
                    marks.mark(made, new StreamMark(w, reader.position(), k + 1, last));
                    result = new BoardResult.Made(made);
                }
                case Failed(LoaderException failure, boolean last) -> {
                    LoaderException named = failure.onWorker(worker.name());
                    marks.mark(named, new StreamMark(w, reader.position(), k + 1, last));
                    result = new BoardResult.Failed(named);
                }
            }
            boolean last = turn.last();
            if (!board.put(w, result) || last) {
                return;
            }
        }
    }
}
