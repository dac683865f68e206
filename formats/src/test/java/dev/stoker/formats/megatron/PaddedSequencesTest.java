package dev.stoker.formats.megatron;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.collate.DefaultCollate;
import dev.stoker.formats.contract.MappedDatasetContract;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Padded rows: the fill path writes what collating get() gives, every sequence cut or padded as asked. */
class PaddedSequencesTest {
    @Test
    void rowsAreTheSequencesCutOrPadded() throws Exception {
        MegatronFixtures.Listing expected = MegatronFixtures.listing("uint16");
        try (MegatronDataset ds = MegatronDataset.open(MegatronFixtures.prefix("uint16"))) {
            PaddedSequences rows = ds.padded(16, -1);
            for (int i = 0; i < ds.size(); i++) {
                long[] seq = expected.sequences().get(i);
                long[] want = new long[16];
                Arrays.fill(want, -1);
                System.arraycopy(seq, 0, want, 0, Math.min(16, seq.length));
                PaddedSequence row = rows.get(i);
                assertThat(row.tokens().toLongArray()).as("row %d", i).containsExactly(want);
                assertThat(row.length()).isEqualTo(Math.min(16, seq.length));
            }
        }
    }

    @Test
    void theFillPathGivesTheBatchesCollateGives() throws Exception {
        try (MegatronDataset ds = MegatronDataset.open(MegatronFixtures.prefix("int32"))) {
            PaddedSequences rows = ds.padded(24, 7);
            assertThat(batches(DataLoader.builder(rows).batchSize(4).shuffle(true).seed(2).numWorkers(2).build()))
                    .isEqualTo(batches(DataLoader.builder(rows).batchSize(4).shuffle(true).seed(2).numWorkers(2)
                            .collate(DefaultCollate.instance()).build()));
        }
    }

    private static List<String> batches(DataLoader<PaddedSequence> loader) {
        List<String> out = new ArrayList<>();
        try (loader) {
            for (Batch b : loader) {
                try (b) {
                    out.add(Arrays.toString(b.tensor("tokens").toLongArray()) + Arrays.toString(b.tensor("length").toLongArray()));
                }
            }
        }
        return out;
    }

    @Nested
    class Contract extends MappedDatasetContract<PaddedSequence> {
        @org.junit.jupiter.api.io.TempDir
        java.nio.file.Path dir;
        private java.nio.file.Path prefix;

        @Override
        protected Opened<PaddedSequence> open() throws Exception {
            prefix = MegatronContractTest.copyOf("int16", dir);
            MegatronDataset ds = MegatronDataset.open(prefix);
            return new Opened<>(ds.padded(8, 0), ds);
        }

        @Override
        protected java.nio.file.Path mappedFile() {
            return MegatronDataset.binPath(prefix);
        }

        @Override
        protected Object content(PaddedSequence s) {
            return Arrays.toString(s.tokens().toLongArray()) + s.length();
        }
    }

    @Nested
    class Fill extends dev.stoker.contract.FillableDatasetContract<PaddedSequence> {
        @org.junit.jupiter.api.io.TempDir
        java.nio.file.Path dir;

        @Override
        protected Opened<PaddedSequence> open() throws Exception {
            MegatronDataset ds = MegatronDataset.open(MegatronContractTest.copyOf("int16", dir));
            return new Opened<>(ds.padded(8, 0), ds);
        }
    }
}
