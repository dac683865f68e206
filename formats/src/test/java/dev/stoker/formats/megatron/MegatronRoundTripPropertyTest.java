package dev.stoker.formats.megatron;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** For any seeded dataset (every dtype, empty sequences and documents, modes or not), what is written reads back the same. */
class MegatronRoundTripPropertyTest {
    @TempDir
    Path dir;

    @Test
    void whatIsWrittenReadsBack() throws Exception {
        for (int seed = 0; seed < 60; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            MegatronDType dtype = MegatronDType.values()[rnd.nextInt(MegatronDType.values().length)];
            boolean multimodal = rnd.nextBoolean();
            Path prefix = dir.resolve("p" + seed);
            List<long[]> sequences = new ArrayList<>();
            List<Integer> modes = new ArrayList<>();
            List<Long> docs = new ArrayList<>(List.of(0L));
            try (MegatronWriter out = multimodal ? MegatronWriter.createMultimodal(prefix, dtype) : MegatronWriter.create(prefix, dtype)) {
                int documents = rnd.nextInt(0, 12);
                for (int d = 0; d < documents; d++) {
                    int count = rnd.nextInt(0, 4);
                    for (int k = 0; k < count; k++) {
                        long[] tokens = new long[rnd.nextInt(0, 300)];
                        for (int j = 0; j < tokens.length; j++) {
                            tokens[j] = dtype == MegatronDType.INT64 ? rnd.nextLong()
                                    : rnd.nextLong(dtype.min(), dtype.max() + 1);
                        }
                        int mode = multimodal ? rnd.nextInt(-128, 128) : 0;
                        out.addSequence(tokens, mode);
                        sequences.add(tokens);
                        modes.add(mode);
                    }
                    out.endDocument();
                    docs.add((long) sequences.size());
                }
                out.commit();
            }
            try (MegatronDataset ds = MegatronDataset.open(prefix)) {
                assertThat(ds.dtype()).isEqualTo(dtype);
                assertThat(ds.size()).as("seed %d", seed).isEqualTo(sequences.size());
                assertThat(ds.hasModes()).isEqualTo(multimodal && !sequences.isEmpty());
                for (int i = 0; i < sequences.size(); i++) {
                    assertThat(ds.tokens(i)).as("seed %d sequence %d", seed, i).containsExactly(sequences.get(i));
                    if (ds.hasModes()) {
                        assertThat(ds.mode(i)).isEqualTo(modes.get(i));
                    }
                }
                assertThat(ds.documentCount()).isEqualTo(docs.size() - 1);
                for (int d = 0; d + 1 < docs.size(); d++) {
                    assertThat(ds.documentStart(d)).isEqualTo(docs.get(d));
                    assertThat(ds.documentEnd(d)).isEqualTo(docs.get(d + 1));
                }
            }
        }
    }
}
