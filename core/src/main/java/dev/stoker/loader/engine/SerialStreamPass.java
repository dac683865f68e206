package dev.stoker.loader.engine;

import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.data.WorkerScope;
import dev.stoker.loader.Batch;
import dev.stoker.loader.LoaderException;
import dev.stoker.loader.StreamState;
import java.util.List;

/**
 * A streaming pass in the consumer's thread: this process is the only worker of its rank;
 * consecutive samples of its stream form the batches, the last one shorter unless dropLast. The
 * stream is opened on the first request (and moved past what a restored state had delivered) and
 * closed at its end, on a failure, or when the pass is closed.
 */
final class SerialStreamPass<T> implements BatchSource {
    private final StreamBatches<T> source;
    private final BatchMaker maker;
    private final long epoch;
    private final int batchSize;
    private final boolean dropLast;
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

    SerialStreamPass(StreamBatches<T> source, BatchMaker maker, long epoch, StreamLog log) {
        this.source = source;
        this.maker = maker;
        this.epoch = epoch;
        this.batchSize = source.settings().batchSize();
        this.dropLast = source.settings().dropLast();
        this.context = source.settings().context(0, 1, epoch);
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
                Batch made = source.timed(maker, context, epoch, k, this::read);
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
    public void received(Batch batch) {
        marks.handedOut(batch, true);
    }

    @Override
    public void received(RuntimeException failure) {
        marks.handedOut(failure, false);
    }

    private void open() {
        long skip = start.samples()[0];
        try {
            stream = source.open(context, start, 0);
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
        List<T> samples;
        try {
            samples = reader.read(batchSize, epoch, k);
        } catch (RuntimeException | Error e) { // an Error too: the report names the sample's position
            throw fail(reader.position(), maker.failure("reading sample " + reader.position()
                    + " of the stream for", epoch, k, new long[0], -1, e));
        }
        boolean last = samples.size() < batchSize;
        if (last) {
            closeStream(); // the stream is over: release it now, not when the consumer gets round to it
            if (samples.isEmpty() || dropLast) {
                return null;
            }
        }
        long batch = k++;
        try {
            Batch made = source.make(maker, epoch, batch, samples, started);
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
