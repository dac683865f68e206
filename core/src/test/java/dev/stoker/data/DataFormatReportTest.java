package dev.stoker.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stoker.loader.Batch;
import dev.stoker.loader.BatchIterator;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderException;
import dev.stoker.loader.SamplePolicy;
import dev.stoker.loader.SkippedSample;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A {@link DataFormatException} from any reader is reported by the loader the same way: the
 * dataset and the sample index from the loader, the file, position and what from the reader.
 */
class DataFormatReportTest {
    private static final String FILE = "/data/shard-000003.tar";

    /** Sample {@code i} is {@code i}; sample 4 is bad data at byte offset 1536 of {@link #FILE}. */
    private static final class Damaged implements Dataset<Long> {
        @Override
        public long size() {
            return 10;
        }

        @Override
        public Long get(long index) {
            if (index == 4) {
                throw new DataFormatException(FILE, DataPosition.byteOffset(1536), "header checksum is wrong");
            }
            return index;
        }

        @Override
        public String name() {
            return "Damaged";
        }
    }

    @Test
    void aFailedBatchNamesTheDatasetTheSampleTheFileAndThePosition() {
        for (int workers : new int[] {0, 2}) {
            try (DataLoader<Long> loader = DataLoader.builder(new Damaged()).batchSize(3).numWorkers(workers)
                    .collate((samples, memory) -> List.copyOf(samples)).build()) {
                BatchIterator it = loader.iterator();
                it.next().close();
                LoaderException e = catchThrowableOfType(LoaderException.class, it::next);
                assertThat(e).as("workers " + workers).isNotNull();
                assertThat(e.getCause()).isInstanceOf(DataFormatException.class);
                assertThat(e.failedIndex()).hasValue(4);
                assertThat(e.getMessage()).contains("'Damaged'").contains("sample 4").contains(FILE)
                        .contains("byte offset 1536").contains("header checksum is wrong");
                try (Batch b = it.next()) {
                    assertThat(b.indices()).containsExactly(6, 7, 8);
                }
            }
        }
    }

    @Test
    void aSkippedSampleNamesTheFileAndThePosition() {
        for (int workers : new int[] {0, 2}) {
            try (DataLoader<Long> loader = DataLoader.builder(new Damaged()).batchSize(3).numWorkers(workers)
                    .onBadSample(SamplePolicy.SKIP).collate((samples, memory) -> List.copyOf(samples)).build()) {
                for (Batch b : loader) {
                    b.close();
                }
                List<SkippedSample> skipped = loader.stats().lastSkipped();
                assertThat(skipped).as("workers " + workers).hasSize(1);
                assertThat(skipped.getFirst().index()).isEqualTo(4);
                assertThat(skipped.getFirst().message()).contains(FILE).contains("byte offset 1536")
                        .contains("header checksum is wrong");
            }
        }
    }
}
