package dev.stoker.data;

import dev.stoker.metrics.Stage;
import dev.stoker.metrics.Stages;

import java.util.function.Function;

/**
 * Streams made from other streams, for datasets that wrap a source's stream: the wrapper's reads
 * are timed as {@link Stage#READ} (a tar stream reads the next sample's members in
 * {@code hasNext}), and {@code skip} and {@code close} stay the source's own, so a resume still
 * passes over what it can without reading it.
 *
 * <pre>{@code
 * SampleStream<byte[]> images = SampleStreams.timedReads(shards.open(ctx), s -> s.bytes("jpg"));
 * }</pre>
 */
public final class SampleStreams {
    private SampleStreams() {
    }

    /** {@code in}'s samples, each seen through {@code view}, with the reads timed. */
    public static <S, T> SampleStream<T> timedReads(SampleStream<S> in, Function<? super S, ? extends T> view) {
        return new SampleStream<>() {
            @Override
            public boolean hasNext() {
                long t = Stages.start();
                try {
                    return in.hasNext();
                } finally {
                    Stages.end(Stage.READ, t);
                }
            }

            @Override
            public T next() {
                long t = Stages.start();
                try {
                    return view.apply(in.next());
                } finally {
                    Stages.end(Stage.READ, t);
                }
            }

            @Override
            public long skip(long n) {
                return in.skip(n);
            }

            @Override
            public void close() {
                in.close();
            }
        };
    }
}
