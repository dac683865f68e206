package dev.stoker.formats.parquet;

import dev.stoker.contract.FillableStreamContract;
import dev.stoker.contract.StreamDatasetContract;
import java.util.Arrays;
import org.junit.jupiter.api.Nested;

/** Parquet read as a stream of row groups: the streaming contract, and the stream-fill one over fixed-width columns. */
class ParquetStreamContractsTest {
    static ParquetDataset open() throws Exception {
        return ParquetDataset.builder(ParquetFixtures.file("zstd_plain.parquet")).cacheRowGroups(8).build();
    }

    @Nested
    class Rows extends StreamDatasetContract<ParquetRow> {
        @Override
        protected Opened<ParquetRow> open() throws Exception {
            ParquetDataset ds = ParquetStreamContractsTest.open();
            return new Opened<>(ds.stream().shuffled(true), ds);
        }

        @Override
        protected Object content(ParquetRow r) {
            return r.toMap().keySet() + Arrays.deepToString(r.toMap().values().toArray());
        }
    }

    @Nested
    class TensorRows extends StreamDatasetContract<ParquetRow> {
        @Override
        protected Opened<ParquetRow> open() throws Exception {
            ParquetDataset ds = ParquetStreamContractsTest.open();
            return new Opened<>(ds.stream().tensors(FillColumn.scalar("id"), FillColumn.scalar("f")), ds);
        }

        @Override
        protected Object content(ParquetRow r) {
            return r.toMap().keySet() + Arrays.deepToString(r.toMap().values().toArray());
        }
    }

    @Nested
    class Fill extends FillableStreamContract<ParquetRow> {
        @Override
        protected Opened<ParquetRow> open() throws Exception {
            ParquetDataset ds = ParquetStreamContractsTest.open();
            return new Opened<>(ds.stream().shuffled(true).tensors(FillColumn.scalar("id"), FillColumn.scalar("f"),
                    FillColumn.list("window", 4)), ds);
        }
    }
}
