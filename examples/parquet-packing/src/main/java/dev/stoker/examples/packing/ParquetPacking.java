package dev.stoker.examples.packing;

import dev.stoker.data.Datasets;
import dev.stoker.formats.parquet.ParquetDataset;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.packing.PackedDataset;
import dev.stoker.packing.PackedRow;
import dev.stoker.sampler.BlockShuffleSampler;
import dev.stoker.tensor.Tensor;
import java.nio.file.Path;

/**
 * The README's language-model recipe: a Hugging Face Parquet folder of pre-tokenized examples to
 * packed batches of rows of 512 tokens with position ids, then a check that every real token of the
 * split arrived once. Exits non-zero when it did not.
 */
public final class ParquetPacking {
    public static void main(String[] args) {
        Path root = Path.of(args.length > 0 ? args[0] : "data/hf");
        long realTokens = 0;
        long rowsSeen = 0;
        long expected;
        double efficiency;

        // --- the recipe ---
        try (ParquetDataset ds = ParquetDataset.huggingFace(root, "train").columns("input_ids").cacheRowGroups(4).build()) {
            PackedDataset rows = PackedDataset.builder(Datasets.map(ds, r -> r.getIntList("input_ids")),
                    ds.listLengths("input_ids"), 512).shuffle(false).build();   // windows of neighbouring examples
            try (DataLoader<PackedRow> loader = DataLoader.builder(rows.fillable())
                    .sampler(new BlockShuffleSampler(rows.size(), 64, 4, 42))   // a few windows' rows at a time
                    .batchSize(8).seed(42).numWorkers(2).build()) {
                for (Batch b : loader) {
                    try (b) {
                        Tensor ids = b.tensor("input_ids");            // (8, 512) int64, and labels, position_ids
                        Tensor mask = b.tensor("attention_mask");
                        // --- end of the recipe: what a training step would take; here, counted ---
                        for (long v : mask.toLongArray()) {
                            realTokens += v;
                        }
                        rowsSeen += ids.shape().dim(0);
                    }
                }
            }
            expected = 0;
            for (int n : ds.listLengths("input_ids")) {
                expected += Math.min(n, 512);
            }
            efficiency = rows.efficiency();
            if (rowsSeen != rows.size()) {
                fail(rowsSeen + " rows delivered of " + rows.size());
            }
        }
        if (realTokens != expected) {
            fail(realTokens + " real tokens delivered, the split holds " + expected);
        }
        System.out.printf("parquet-packing: %d rows of 512, %d real tokens (%.1f%% of the rows), every token once%n",
                rowsSeen, realTokens, 100 * efficiency);
    }

    private static void fail(String why) {
        System.err.println("parquet-packing: " + why);
        System.exit(1);
    }
}
