package dev.stoker.data;

import java.util.Iterator;

/**
 * The samples one worker reads from a {@link StreamingDataset} in one epoch. Closing it releases
 * what it holds open (files, connections), also when it was not read to the end.
 */
public interface SampleStream<T> extends Iterator<T>, AutoCloseable {
    @Override
    void close();

    /**
     * Moves past the next {@code n} samples without handing them out: how a resumed loader
     * ({@code DataLoader.restore}) puts a stream back where it stood. Returns how many samples it
     * moved past, fewer than {@code n} only at the end of the stream.
     *
     * <p>The default reads the samples and drops them, and drops a sample whose {@code next()}
     * throws too (it was dealt with before the stop). A stream that can move on without reading
     * its samples (an index of its shards, a seek) should override this, so that a resume reads
     * none of what it skips.
     *
     * <pre>{@code
     * SampleStream<Row> rows = dataset.open(ctx);
     * rows.skip(640);              // the first 640 were delivered before the stop
     * }</pre>
     */
    default long skip(long n) {
        long done = 0;
        while (done < n && hasNext()) {
            try {
                next();
            } catch (RuntimeException e) {
                // a bad sample still takes its place in the stream: SamplePolicy.SKIP counted it
            }
            done++;
        }
        return done;
    }

    /** A stream over an iterator that holds nothing to release. */
    static <T> SampleStream<T> of(Iterator<T> it) {
        return new SampleStream<>() {
            public boolean hasNext() {
                return it.hasNext();
            }

            public T next() {
                return it.next();
            }

            public void close() {}
        };
    }
}
