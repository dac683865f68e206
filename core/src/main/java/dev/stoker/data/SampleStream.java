package dev.stoker.data;

import java.util.Iterator;

/**
 * The samples one worker reads from a {@link StreamingDataset} in one epoch. Closing it releases
 * what it holds open (files, connections), also when it was not read to the end.
 */
public interface SampleStream<T> extends Iterator<T>, AutoCloseable {
    @Override
    void close();

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
