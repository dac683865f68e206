package dev.stoker.loader.engine;

import dev.stoker.data.ReshardableStreamingDataset;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.loader.StreamState;

/**
 * How a pass opens a worker's stream where its {@link StreamState} says it stands: from the
 * epoch's start, or from a resharded state's cursor, and moved past the samples it had delivered.
 * Both engines open their streams through here, so that a resume behaves the same with or
 * without workers.
 */
final class StreamOpening {
    /** Opening or moving the stream failed; {@code step} says which, as a {@link LoaderException} names it. */
    static final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String step;

        Failure(String step, RuntimeException cause) {
            super(step, cause, false, false);
            this.step = step;
        }
    }

    private StreamOpening() {}

    /**
     * Worker {@code w}'s stream, opened with {@code context} from where {@code start} began (its
     * cursor, or the epoch's start) and moved past the {@code start.samples()[w]} samples it had
     * delivered. A stream that fails to move is closed before the failure is thrown.
     *
     * @throws Failure naming the step that failed, with the dataset's exception as its cause
     */
    static <T> SampleStream<T> open(StreamingDataset<T> dataset, WorkerContext context, StreamState start, int w) {
        SampleStream<T> stream;
        try {
            stream = open(dataset, context, start.start());
        } catch (RuntimeException e) {
            throw new Failure("opening the stream for", e);
        }
        long skip = start.samples()[w];
        if (skip > 0) {
            try {
                stream.skip(skip);
            } catch (RuntimeException e) {
                Failure f = new Failure("moving past the " + skip + " samples delivered before the resume, in the"
                        + " stream for", e);
                try {
                    stream.close();
                } catch (RuntimeException closing) {
                    f.addSuppressed(closing);
                }
                throw f;
            }
        }
        return stream;
    }

    /** {@code dataset.open(context)}, or with {@code cursor} the dataset's share of what is left after it. */
    private static <T> SampleStream<T> open(StreamingDataset<T> dataset, WorkerContext context, long[] cursor) {
        if (cursor == null) {
            return dataset.open(context);
        }
        if (!(dataset instanceof ReshardableStreamingDataset<T> reshardable)) {
            throw new IllegalStateException(dataset.name() + " cannot open a stream from a resharded state");
        }
        return reshardable.open(context, cursor);
    }
}
