package dev.stoker.formats.parquet;

import dev.stoker.data.FillableStreamingDataset;
import dev.stoker.data.ReshardableStreamingDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;

/**
 * A {@link ParquetStream} whose chosen numeric columns the loader writes straight into the batch,
 * as {@link ParquetTensorDataset} does for the map-style dataset: the stream yields rows (a place
 * in a decoded row group, nothing copied) and {@link #fill} copies each row's values into its row
 * of the batch, checked as {@link ParquetTensorDataset} checks them. It reshards as the stream
 * does.
 *
 * <pre>{@code
 * ParquetTensorStream t = ds.stream().tensors(FillColumn.list("input_ids", 2048), FillColumn.scalar("label"));
 * DataLoader<ParquetRow> loader = DataLoader.builder(t).batchSize(32).numWorkers(4).build();
 * }</pre>
 */
public final class ParquetTensorStream implements FillableStreamingDataset<ParquetRow>,
        ReshardableStreamingDataset<ParquetRow> {
    private final ParquetStream stream;
    private final ParquetTensorDataset tensors;

    ParquetTensorStream(ParquetStream stream, ParquetTensorDataset tensors) {
        this.stream = stream;
        this.tensors = tensors;
    }

    @Override
    public SampleStream<ParquetRow> open(WorkerContext context) {
        return stream.open(context);
    }

    /** As {@link ParquetStream#cursor}: the rows left, dealt again on another layout. */
    @Override
    public long[] cursor(long seed, long epoch, long[] start, long[] positions, boolean[] ended) {
        return stream.cursor(seed, epoch, start, positions, ended);
    }

    @Override
    public void checkCursor(long[] cursor) {
        stream.checkCursor(cursor);
    }

    @Override
    public SampleStream<ParquetRow> open(WorkerContext context, long[] cursor) {
        return stream.open(context, cursor);
    }

    @Override
    public SampleLayout layout() {
        return tensors.layout();
    }

    @Override
    public void fill(ParquetRow sample, SampleSlot slot) {
        tensors.fill(sample.group(), sample.row(), slot);
    }

    @Override
    public String name() {
        return "ParquetTensorStream(" + stream.dataset.name() + ": " + tensors.layout() + ")";
    }
}
