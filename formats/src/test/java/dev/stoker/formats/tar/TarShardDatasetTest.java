package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TarShardDatasetTest {
    @TempDir
    Path dir;

    /** 9 shards of 1..9 samples with keys "s-n", 45 in all, each with a .cls holding n. */
    private String pattern() {
        int n = 0;
        for (int s = 0; s < 9; s++) {
            try (ShardWriter w = ShardWriter.builder(dir.resolve("t" + s + "-%d.tar").toString()).build()) {
                for (int k = 0; k <= s; k++, n++) {
                    w.write(s + "-" + n, Map.of("cls", Integer.toString(n).getBytes(), "bin", new byte[n * 37]));
                }
                w.commit();
            }
        }
        return dir.resolve("t{0..8}-0.tar").toString();
    }

    static List<String> keys(TarShardDataset ds, WorkerContext ctx) {
        List<String> out = new ArrayList<>();
        try (SampleStream<TarSample> s = ds.open(ctx)) {
            s.forEachRemaining(x -> out.add(x.key()));
        }
        return out;
    }

    @Test
    void ranksAndWorkersTogetherReadEverySampleOnce() {
        String pattern = pattern();
        for (int shuffleBuffer : new int[] {0, 7}) {
            TarShardDataset ds = TarShardDataset.builder(pattern).shuffleShards(true).shuffleBuffer(shuffleBuffer).build();
            List<String> all = new ArrayList<>();
            for (int rank = 0; rank < 2; rank++) {
                for (int w = 0; w < 3; w++) {
                    all.addAll(keys(ds, new WorkerContext(w, 3, rank, 2, 1, 99)));
                }
            }
            assertThat(all).hasSize(45).doesNotHaveDuplicates();
        }
    }

    @Test
    void oneWorkerReadsShardsInOrderWithoutShuffling() {
        TarShardDataset ds = TarShardDataset.builder(pattern()).build();
        List<String> keys = keys(ds, new WorkerContext(0, 1, 0, 1, 0, 0));
        assertThat(keys).hasSize(45);
        assertThat(keys.subList(0, 4)).containsExactly("0-0", "1-1", "1-2", "2-3");
    }

    @Test
    void theShuffleIsSeededByEpochAndWorker() {
        TarShardDataset ds = TarShardDataset.builder(pattern()).shuffleShards(true).shuffleBuffer(10).build();
        WorkerContext c = new WorkerContext(0, 1, 0, 1, 0, 5);
        List<String> a = keys(ds, c);
        assertThat(keys(ds, c)).isEqualTo(a);
        assertThat(keys(ds, new WorkerContext(0, 1, 0, 1, 1, 5))).isNotEqualTo(a)
                .containsExactlyInAnyOrderElementsOf(a);
    }

    @Test
    void samplesCarryKeyUrlAndFields() {
        TarShardDataset ds = TarShardDataset.builder(pattern()).build();
        try (SampleStream<TarSample> s = ds.open(new WorkerContext(0, 1, 0, 1, 0, 0))) {
            s.next();
            TarSample x = s.next();
            assertThat(x.key()).isEqualTo("1-1");
            assertThat(x.url()).endsWith("t1-0.tar");
            assertThat(x.string("cls")).isEqualTo("1");
            assertThat(x.toMap()).containsKeys("__key__", "__url__", "cls", "bin");
            assertThatThrownBy(() -> x.segment("jpg")).hasMessageContaining("has no \"jpg\"");
        }
    }

    @Test
    void aCorruptShardFailsOrIsSkippedAsAsked() throws Exception {
        String pattern = pattern();
        Path third = dir.resolve("t2-0.tar");
        byte[] b = Files.readAllBytes(third);
        Files.write(third, Arrays.copyOf(b, 700)); // inside the first member's data
        WorkerContext one = new WorkerContext(0, 1, 0, 1, 0, 0);
        assertThatThrownBy(() -> TarShardDataset.builder(pattern).build()).isInstanceOf(ShardSetException.class)
                .hasMessageContaining("t2-0.tar is 700 bytes").hasMessageContaining("t2.stoker-manifest says 10240");
        Files.delete(dir.resolve("t2.stoker-manifest")); // a foreign shard: nothing says what it should be
        assertThatThrownBy(() -> keys(TarShardDataset.builder(pattern).build(), one))
                .isInstanceOf(TarException.class).hasMessageContaining("t2-0.tar");
        TarShardDataset skipping = TarShardDataset.builder(pattern).skipCorruptShards(true).build();
        assertThat(keys(skipping, one)).hasSize(45 - 3).doesNotContain("2-3", "2-4", "2-5");
    }

    @Test
    void samplesPerWorkerEvensOutUnevenShards() {
        String pattern = pattern();
        TarShardDataset ds = TarShardDataset.builder(pattern).samplesPerWorker(12).shuffleBuffer(5).build();
        List<String> all = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++) {
            for (int w = 0; w < 2; w++) {
                List<String> mine = keys(ds, new WorkerContext(w, 2, rank, 2, 0, 1));
                assertThat(mine).as("rank %d worker %d", rank, w).hasSize(12);
                all.addAll(mine);
            }
        }
        assertThat(all).hasSize(48); // 45 samples: some repeated, all workers equal
        // a worker with no shards cannot deliver anything: said, not hung
        TarShardDataset few = TarShardDataset.builder(dir.resolve("t{0..1}-0.tar").toString()).samplesPerWorker(3).build();
        assertThatThrownBy(() -> keys(few, new WorkerContext(2, 3, 0, 1, 0, 0)))
                .hasMessageContaining("hold no samples");
    }
}
