package dev.stoker.loader;

import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.data.WorkerScope;
import dev.stoker.sampler.BatchSampler;
import java.util.Iterator;
import java.util.List;

/**
 * Loads every batch in the consumer's thread, when it is asked for: {@code numWorkers(0)}. Nothing
 * is loaded ahead, so nothing is left to clean up but an open stream. The consumer's thread is
 * worker 0 of 1: fetches run with that {@link WorkerContext} and the batch's generator
 * ({@link WorkerContext#currentRandom()}); no {@code workerInit} hook runs, as in PyTorch.
 */
final class SerialEngine<T> implements Engine {
    private final LoaderSettings<T> settings;
    private final BatchMaker<T> maker;

    SerialEngine(LoaderSettings<T> settings, BatchMaker<T> maker) {
        this.settings = settings;
        this.maker = maker;
    }

    @Override
    public BatchSource start(long epoch, BatchPlan plan, DeliveryLog log, StreamLog streams) {
        return settings.isStreaming()
                ? new StreamPass<>(settings, maker, epoch, streams)
                : new MapPass<>(settings, maker, epoch, plan, log);
    }

    /** The consumer's thread as worker 0 of 1, for one epoch. */
    static WorkerContext context(LoaderSettings<?> settings, long epoch) {
        return new WorkerContext(0, 1, settings.rank(), settings.worldSize(), epoch, settings.seed());
    }

    @Override
    public void close() {}

    /** A map-style pass: the batch sampler's index batches, each fetched and collated on demand. */
    private static final class MapPass<T> implements BatchSource {
        private final BatchPlan plan;
        private final DeliveryLog log;
        private final LoaderSettings<T> settings;
        private final BatchSampler sampler;
        private final BatchMaker<T> maker;
        private final long epoch;
        private final WorkerContext context;
        private Iterator<long[]> batches;
        private long k;
        private volatile boolean closed; // also set by a close() from another thread

        MapPass(LoaderSettings<T> settings, BatchMaker<T> maker, long epoch, BatchPlan plan, DeliveryLog log) {
            this.plan = plan;
            this.log = log;
            this.settings = settings;
            this.sampler = settings.batchSampler();
            this.maker = maker;
            this.epoch = epoch;
            this.context = context(settings, epoch);
        }

        @Override
        public Batch next() {
            if (closed) {
                return null;
            }
            if (batches == null) {
                batches = settings.hinted(plan.remaining(sampler.iterator(epoch)));
            }
            while (!closed && batches.hasNext()) {
                long[] indices = batches.next();
                long position = plan.original(k++); // k advances also when the batch fails
                Batch batch;
                try {
                    batch = maker.timed(epoch, position, () -> WorkerScope.call(context,
                            context.batchRandomSeed(position), () -> maker.make(epoch, position, indices)));
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
        public void close() {
            closed = true;
        }
    }

    /**
     * A streaming pass: this process is the only worker of its rank; consecutive samples of its
     * stream form the batches, the last one shorter unless dropLast. The stream is opened on the
     * first request (and moved past what a restored state had delivered) and closed at its end, on
     * a failure, or when the pass is closed.
     */
    private static final class StreamPass<T> implements BatchSource {
        private final LoaderSettings<T> settings;
        private final BatchMaker<T> maker;
        private final long epoch;
        private final WorkerContext context;
        private final StreamState start;
        private final StreamMarks marks;
        private SampleStream<T> stream;
        private StreamReader<T> reader;
        private long k;
        private boolean finished;
        // A close() from another thread must not close the stream under the consumer's read (a
        // stream is for one thread): while the consumer is in next() it only asks, and the
        // consumer closes the stream on its way out. Guarded by this; two uncontended locks a batch.
        private boolean reading;
        private volatile boolean closeAsked;

        StreamPass(LoaderSettings<T> settings, BatchMaker<T> maker, long epoch, StreamLog log) {
            this.settings = settings;
            this.maker = maker;
            this.epoch = epoch;
            this.context = context(settings, epoch);
            this.start = log.start();
            this.marks = new StreamMarks(log);
            this.k = start.batches()[0];
            this.finished = start.ended()[0];
        }

        @Override
        public Batch next() {
            synchronized (this) {
                if (closeAsked) {
                    return null;
                }
                reading = true;
            }
            try {
                while (!finished && !closeAsked) {
                    if (stream == null) {
                        WorkerScope.run(context, context.randomSeed(), this::open);
                    }
                    Batch made = maker.timed(epoch, k, () -> WorkerScope.call(context, context.streamRandomSeed(k), this::read));
                    if (made != null) {
                        return made;
                    } // else the stream is over (finished), or every sample of the batch was skipped: read on
                }
                return null;
            } finally {
                boolean closeNow;
                synchronized (this) {
                    reading = false;
                    closeNow = closeAsked;
                }
                if (closeNow) {
                    closeStream();
                }
            }
        }

        @Override
        public void handedOut(Object item) {
            marks.handedOut(item);
        }

        private void open() {
            long skip = start.samples()[0];
            try {
                stream = StreamOpening.open(settings.streamingDataset(), context, start, 0);
            } catch (StreamOpening.Failure f) {
                throw fail(skip, maker.failure(f.step, epoch, k, new long[0], -1, f.getCause()));
            }
            reader = new StreamReader<>(stream, maker.skips(), skip);
        }

        /** Ends the pass after {@code failure}, which the consumer receives in this stream's place. */
        private LoaderException fail(long position, LoaderException failure) {
            try {
                closeStream(); // a stream that failed is not read further
            } catch (RuntimeException closing) {
                failure.addSuppressed(closing);
            }
            marks.mark(failure, new StreamMark(0, position, k, true));
            return failure;
        }

        private Batch read() {
            long started = System.nanoTime();
            int size = settings.batchSize();
            List<T> samples;
            try {
                samples = reader.read(size, epoch, k);
            } catch (RuntimeException | Error e) { // an Error too: the report names the sample's position
                throw fail(reader.position(), maker.failure("reading sample " + reader.position()
                        + " of the stream for", epoch, k, new long[0], -1, e));
            }
            boolean last = samples.size() < size;
            if (last) {
                closeStream(); // the stream is over: release it now, not when the consumer gets round to it
                if (samples.isEmpty() || settings.dropLast()) {
                    return null;
                }
            }
            long batch = k++;
            try {
                Batch made = maker.assemble(epoch, batch, new long[0], samples, started);
                if (made != null) {
                    marks.mark(made, new StreamMark(0, reader.position(), k, last));
                }
                return made;
            } catch (LoaderException e) {
                marks.mark(e, new StreamMark(0, reader.position(), k, last));
                throw e;
            }
        }

        /** Ends the pass; from any thread (see {@link #reading}). */
        @Override
        public void close() {
            synchronized (this) {
                closeAsked = true;
                if (reading) {
                    return; // the consumer closes the stream when its read is done
                }
            }
            closeStream();
        }

        /** Closes the stream: the consumer's thread, or a closer while the consumer is out of next(). */
        private void closeStream() {
            SampleStream<T> s;
            synchronized (this) {
                finished = true;
                s = stream;
                stream = null;
            }
            if (s != null) {
                s.close();
            }
        }
    }
}
