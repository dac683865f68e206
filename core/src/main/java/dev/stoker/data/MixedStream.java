package dev.stoker.data;

import dev.stoker.random.Seeds;

import java.util.List;
import java.util.NoSuchElementException;

/**
 * One worker's stream of a {@link MixedStreamingDataset}: draw {@code i} picks the source of the
 * {@code i}-th sample. The pick for a position is decided in {@link #hasNext} (which must ask the
 * drawn source whether it has a sample) and taken by {@link #next}.
 */
final class MixedStream<T> implements SampleStream<T> {
    private final List<SampleStream<? extends T>> streams; // null where the weight is 0
    private final double[] weights;
    private final boolean[] open;
    private final MixedStreamingDataset.Until until;
    private final long drawKey;
    private double openWeight;
    private long position;
    private int drawn = -1; // the source of the sample at position, once hasNext has checked it
    private int last = -1; // the source of the sample next() handed out last
    private boolean ended;

    MixedStream(List<SampleStream<? extends T>> streams, double[] weights, MixedStreamingDataset.Until until,
                long drawKey) {
        this.streams = streams;
        this.weights = weights;
        this.until = until;
        this.drawKey = drawKey;
        this.open = new boolean[weights.length];
        for (int k = 0; k < weights.length; k++) {
            open[k] = weights[k] > 0;
        }
        this.openWeight = sumOpen();
    }

    @Override
    public boolean hasNext() {
        if (drawn >= 0) {
            return true;
        }
        while (!ended) {
            int k = pick(position);
            if (streams.get(k).hasNext()) {
                drawn = k;
                return true;
            }
            drop(k);
        }
        return false;
    }

    @Override
    public T next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the mixture has ended");
        }
        int k = drawn;
        drawn = -1;
        last = k;
        position++; // a sample that fails to read still takes its draw, as skip counts it
        return streams.get(k).next();
    }

    /** The source of the sample {@link #next} handed out last, or -1 before the first. */
    int lastSource() {
        return last;
    }

    /**
     * Skips by the draws: with {@code FIRST_ENDS} the sources never change until the end, so the
     * next {@code n} draws say how far each source moves and each is skipped once; with
     * {@code ALL_END} a source that ends changes the later draws, so they go one at a time.
     */
    @Override
    public long skip(long n) {
        drawn = -1;
        if (ended || n <= 0) {
            return 0;
        }
        if (until == MixedStreamingDataset.Until.ALL_END) {
            long done = 0;
            while (done < n && !ended) {
                int k = pick(position);
                if (streams.get(k).skip(1) == 1) {
                    position++;
                    done++;
                } else {
                    drop(k);
                }
            }
            return done;
        }
        long start = position;
        long[] wanted = new long[weights.length];
        for (long i = start; i < start + n; i++) {
            wanted[pick(i)]++;
        }
        long[] moved = new long[weights.length];
        boolean short_ = false;
        for (int k = 0; k < weights.length; k++) {
            if (wanted[k] > 0) {
                moved[k] = streams.get(k).skip(wanted[k]);
                short_ |= moved[k] < wanted[k];
            }
        }
        if (!short_) {
            position = start + n;
            return n;
        }
        // The draw that first asked a source for more than it had is where the mixture ended.
        long[] taken = new long[weights.length];
        for (long i = start; ; i++) {
            int k = pick(i);
            if (taken[k]++ == moved[k]) {
                position = i;
                ended = true;
                return i - start;
            }
        }
    }

    /** The source that draw {@code i} picks among those still open. */
    private int pick(long i) {
        double target = Seeds.unit(Seeds.splitMix(drawKey, i)) * openWeight;
        double cumulative = 0;
        int last = -1;
        for (int k = 0; k < weights.length; k++) {
            if (open[k]) {
                cumulative += weights[k];
                last = k;
                if (target < cumulative) {
                    return k;
                }
            }
        }
        return last; // rounding can leave the target a hair above the sum
    }

    /** Source {@code k} has no more samples: the mixture ends, or goes on without it. */
    private void drop(int k) {
        if (until == MixedStreamingDataset.Until.FIRST_ENDS) {
            ended = true;
            return;
        }
        open[k] = false;
        openWeight = sumOpen();
        ended = openWeight <= 0;
    }

    private double sumOpen() {
        double sum = 0;
        for (int k = 0; k < weights.length; k++) {
            sum += open[k] ? weights[k] : 0;
        }
        return sum;
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        for (SampleStream<? extends T> s : streams) {
            if (s == null) {
                continue;
            }
            try {
                s.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
