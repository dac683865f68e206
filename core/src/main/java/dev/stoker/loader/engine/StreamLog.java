package dev.stoker.loader.engine;

import dev.stoker.loader.StreamState;

/**
 * What the consumer has received of a streaming pass, worker by worker: the live side of a
 * {@link StreamState}. Updated by the consumer's thread as it takes each batch (or a stream's
 * failure), read by {@link DataLoader#state()}.
 */
final class StreamLog {
    private final StreamState start;
    private final long[] samples;
    private final long[] batches;
    private final boolean[] ended;
    private int turn;
    private long delivered;

    StreamLog(StreamState start) {
        this.start = start;
        this.samples = start.samples();
        this.batches = start.batches();
        this.ended = start.ended();
        this.turn = start.turn();
        this.delivered = start.delivered();
    }

    /** Where the pass started: positions to skip to, batches to count on from. */
    StreamState start() {
        return start;
    }

    /** The consumer received a batch ({@code batch}) or a failure in worker {@code mark.worker()}'s turn. */
    synchronized void handedOut(StreamMark mark, boolean batch) {
        int w = mark.worker();
        if (batch) {
            delivered++;
        }
        samples[w] = mark.samplesAfter();
        batches[w] = mark.batchesAfter();
        ended[w] |= mark.last();
        turn = (w + 1) % samples.length;
    }

    synchronized StreamState snapshot() {
        return new StreamState(start.rank(), start.worldSize(), start.batchSize(), turn, delivered, samples, batches,
                ended, start.start());
    }
}
