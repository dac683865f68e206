package dev.stoker.cli;

import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;

/**
 * A fillable dataset seen one sample at a time: its own {@code getBatch} and {@code fillBatch}
 * hidden, so the loader calls {@code get} or {@code fill} per sample. It lets two rows of a
 * workload differ in the batched call alone ({@code fill} and {@code batched fill}), or lets the
 * loader's I/O mode fan out a dataset that would otherwise be fetched a batch at a time (W1).
 *
 * <pre>{@code
 * FillableDataset<TokenWindow> ds = PerSample.forRow("W2", windows, configuration);
 * }</pre>
 */
record PerSample<T>(FillableDataset<T> source) implements FillableDataset<T> {

    /**
     * The dataset for row {@code c} of a workload whose rows are the general path, {@code fill}
     * and {@code batched fill} (W2, W6): {@code source} seen per sample on a {@code fill} row, as
     * it is otherwise.
     *
     * @throws IllegalArgumentException for a batched row without fill, which such a workload lacks
     */
    static <T> FillableDataset<T> forRow(String workload, FillableDataset<T> source, Configuration c) {
        if (c.batched() && !c.fill()) {
            throw new IllegalArgumentException(
                    workload + " has no batched fetch without fill: its batched row is 'batched fill'");
        }
        return c.fill() && !c.batched() ? new PerSample<>(source) : source;
    }

    @Override
    public long size() {
        return source.size();
    }

    @Override
    public T get(long index) {
        return source.get(index);
    }

    @Override
    public SampleLayout layout() {
        return source.layout();
    }

    @Override
    public void fill(long index, SampleSlot slot) {
        source.fill(index, slot);
    }

    @Override
    public String name() {
        return source.name();
    }
}
