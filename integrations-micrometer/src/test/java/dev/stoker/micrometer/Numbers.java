package dev.stoker.micrometer;

import dev.stoker.data.Dataset;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.Stages;
import java.util.Set;

/**
 * Sample {@code i} is {@code [i, 3i]}, "decoded" under the dataset's own {@link Stage#DECODE}
 * timing so that a dataset-timed stage shows in the meters; the samples in {@code bad} throw.
 */
final class Numbers implements Dataset<long[]> {
    private final long size;
    private final Set<Long> bad;

    Numbers(long size, Set<Long> bad) {
        this.size = size;
        this.bad = Set.copyOf(bad);
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public long[] get(long i) {
        long t = Stages.start();
        if (bad.contains(i)) {
            throw new IllegalStateException("bad sample " + i);
        }
        long[] sample = {i, 3 * i};
        Stages.end(Stage.DECODE, t);
        return sample;
    }

    @Override
    public String name() {
        return "numbers";
    }
}
