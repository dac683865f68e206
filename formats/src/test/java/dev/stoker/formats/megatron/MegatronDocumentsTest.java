package dev.stoker.formats.megatron;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.Tensor;
import dev.stoker.text.DocumentWindowDataset;
import dev.stoker.text.TokenDocuments;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Windows over a Megatron dataset are the windows over the same documents held in memory, also through the loader. */
class MegatronDocumentsTest {
    @TempDir
    Path dir;

    @Test
    void windowsOverAMegatronDatasetAreThoseOfItsSequences() throws Exception {
        SplittableRandom r = new SplittableRandom(10);
        List<int[]> docs = new ArrayList<>();
        Path prefix = dir.resolve("docs");
        try (MegatronWriter out = MegatronWriter.create(prefix, MegatronDType.UINT16)) {
            for (int d = 0; d < 200; d++) {
                int[] doc = new int[r.nextInt(0, 90)];
                for (int k = 0; k < doc.length; k++) {
                    doc[k] = r.nextInt(1, 60_000);
                }
                out.addSequence(doc);
                out.endDocument();
                docs.add(doc);
            }
            out.commit();
        }
        try (MegatronDataset seqs = MegatronDataset.open(prefix)) {
            DocumentWindowDataset fromFile = DocumentWindowDataset.builder(new MegatronDocuments(seqs), 64).eos(0)
                    .positionIds(true).build();
            DocumentWindowDataset inMemory = DocumentWindowDataset.builder(TokenDocuments.of(docs), 64).eos(0)
                    .positionIds(true).build();
            assertThat(fromFile.size()).isEqualTo(inMemory.size()).isPositive();
            List<Map<String, long[]>> batches = new ArrayList<>();
            try (DataLoader<Map<String, Tensor>> loader = DataLoader.builder(fromFile).batchSize(8).shuffle(true).seed(3)
                    .numWorkers(2).build()) {
                for (Batch b : loader) {
                    try (b) {
                        batches.add(Map.of("input", b.tensor("input").toLongArray(),
                                "position_ids", b.tensor("position_ids").toLongArray()));
                    }
                }
            }
            long seen = 0;
            for (Map<String, long[]> b : batches) {
                seen += b.get("input").length / 64;
            }
            assertThat(seen).isEqualTo(fromFile.size());
            for (long i = 0; i < fromFile.size(); i++) {
                assertThat(fromFile.get(i).get("input").toLongArray()).containsExactly(inMemory.get(i).get("input").toLongArray());
                assertThat(fromFile.get(i).get("position_ids").toLongArray())
                        .containsExactly(inMemory.get(i).get("position_ids").toLongArray());
            }
        }
    }
}
