package dev.stoker.contract;

import dev.stoker.data.FillableStreamingDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import java.util.NoSuchElementException;

/**
 * A fillable stream over {@code from .. from + size - 1}, sample {@code i} to global worker
 * {@code i % globalWorkers}, filled as an i64 pair {@code (i, -i)}: a source for the contracts of
 * the datasets that wrap streams.
 */
public record RangeStream(long from, long size) implements FillableStreamingDataset<Long> {
    private static final SampleLayout LAYOUT = SampleLayout.of(new SampleLayout.Field("pair", DType.I64, Shape.of(2)));

    @Override
    public SampleStream<Long> open(WorkerContext ctx) {
        return new SampleStream<>() {
            long next = ctx.globalWorkerId();

            public boolean hasNext() {
                return next < size;
            }

            public Long next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                long v = from + next;
                next += ctx.globalWorkers();
                return v;
            }

            public void close() {}
        };
    }

    @Override
    public SampleLayout layout() {
        return LAYOUT;
    }

    @Override
    public void fill(Long sample, SampleSlot slot) {
        slot.tensor(0).setLong(0, sample);
        slot.tensor(0).setLong(1, -sample);
    }
}
