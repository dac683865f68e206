package dev.stoker.loader;

import dev.stoker.data.ReshardableStreamingDataset;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;

/** How a pass opens a worker's stream: from the epoch's start, or from where a resharded state left it. */
final class StreamOpening {
    private StreamOpening() {}

    /**
     * {@code dataset.open(context)}, or with {@code cursor} (a resharded epoch's start, see
     * {@link StreamState#start()}) the dataset's share of what is left after it.
     */
    static <T> SampleStream<T> open(StreamingDataset<T> dataset, WorkerContext context, long[] cursor) {
        if (cursor == null) {
            return dataset.open(context);
        }
        if (!(dataset instanceof ReshardableStreamingDataset<T> reshardable)) {
            throw new IllegalStateException(dataset.name() + " cannot open a stream from a resharded state");
        }
        return reshardable.open(context, cursor);
    }
}
