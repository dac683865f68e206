package dev.stoker.loader;

import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
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
 */
final class StreamWorkerPass<T> extends WorkerPass<T> {

    StreamWorkerPass(LoaderSettings<T> settings, BatchMaker<T> maker, long epoch, WorkerCrew crew,
                     boolean ownsCrew, Duration grace) {
        super(settings, maker, epoch, crew, ownsCrew, grace);
    }

    @Override
    Batch delivered(Batch batch, long batchesBefore) {
        return new Batch(batch.epoch(), batchesBefore, batch.indices(), batch.data(), batch.buffers());
    }

    @Override
    void work(Worker worker, WorkerContext context) {
        int w = worker.id();
        SampleStream<T> stream;
        try {
            stream = settings.streamingDataset().open(context);
        } catch (RuntimeException e) {
            board.put(w, maker.failure("opening the stream for", epoch, 0, new long[0], -1, e).onWorker(worker.name()));
            return;
        }
        try {
            read(worker, stream);
        } finally {
            try {
                stream.close();
            } catch (RuntimeException e) {
                board.put(w, maker.failure("closing the stream after", epoch, 0, new long[0], -1, e)
                        .onWorker(worker.name()));
            }
        }
    }

    private void read(Worker worker, SampleStream<T> stream) {
        int w = worker.id();
        int size = settings.batchSize();
        StreamReader<T> reader = new StreamReader<>(stream, maker.skips());
        for (long k = 0; ; k++) {
            try {
                board.acquireSlot(w);
            } catch (InterruptedException e) {
                return;
            }
            if (board.isClosed()) {
                return;
            }
            worker.working(k, new long[0]);
            long start = System.nanoTime();
            List<T> samples;
            try {
                samples = reader.read(size, epoch, k);
            } catch (RuntimeException e) {
                worker.idle();
                board.put(w, maker.failure("reading sample " + reader.position() + " of the stream for", epoch, k,
                        new long[0], -1, e).onWorker(worker.name()));
                return;
            }
            if (samples.size() < size && (samples.isEmpty() || settings.dropLast())) {
                worker.idle();
                board.releaseSlot(w);
                return;
            }
            Object result;
            try {
                result = maker.assemble(epoch, k, new long[0], samples, System.nanoTime() - start);
            } catch (LoaderException e) {
                result = e.onWorker(worker.name());
            } finally {
                worker.idle();
            }
            if (!board.put(w, result) || samples.size() < size) {
                return;
            }
        }
    }
}
