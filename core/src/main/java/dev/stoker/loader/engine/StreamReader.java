package dev.stoker.loader.engine;

import dev.stoker.data.SampleStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the samples of a stream's batches, one worker's stream (or the consumer's), and keeps its
 * position. Under {@link SamplePolicy#SKIP} a sample whose {@code next()} throws is left out and
 * reading goes on while {@code hasNext()} answers, so batches stay full; after
 * {@value SkippedSamples#STUCK_STREAM} such failures in a row the stream counts as stuck and fails.
 */
final class StreamReader<T> {
    private final SampleStream<T> stream;
    private final SkippedSamples skips; // null under SamplePolicy.FAIL
    private long position;

    /** A reader of {@code stream}, which stands at sample {@code position} (after a resume's skip). */
    StreamReader(SampleStream<T> stream, SkippedSamples skips, long position) {
        this.stream = stream;
        this.skips = skips;
        this.position = position;
    }

    /** Samples read or skipped so far: the position in the stream of the next one. */
    long position() {
        return position;
    }

    /**
     * Up to {@code size} samples, fewer only at the end of the stream.
     *
     * @throws RuntimeException what the stream threw, which ends it; {@link #position()} is then
     *                          that of the sample being read
     */
    List<T> read(int size, long epoch, long batch) {
        List<T> samples = new ArrayList<>(size);
        int inARow = 0;
        while (samples.size() < size && stream.hasNext()) {
            T sample;
            try {
                sample = stream.next();
            } catch (RuntimeException e) {
                if (skips == null || Thread.currentThread().isInterrupted()) {
                    throw e;
                }
                if (++inARow >= SkippedSamples.STUCK_STREAM) {
                    throw new IllegalStateException("the stream failed " + inARow + " times in a row and does not"
                            + " move past its bad samples; last: " + SkippedSamples.describe(e), e);
                }
                skips.skip(epoch, batch, position++, e);
                continue;
            }
            inARow = 0;
            samples.add(sample);
            position++;
        }
        return samples;
    }
}
