package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.WorkerContext;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ShardAssignmentTest {
    static final List<String> SHARDS = IntStream.range(0, 23).mapToObj(i -> "s" + i).toList();

    @Test
    void everyShardGoesToExactlyOneWorkerOfOneRank() {
        for (int world : new int[] {1, 2, 3}) {
            for (int workers : new int[] {1, 2, 4}) {
                for (boolean shuffle : new boolean[] {false, true}) {
                    List<String> all = new ArrayList<>();
                    for (int rank = 0; rank < world; rank++) {
                        for (int w = 0; w < workers; w++) {
                            all.addAll(ShardAssignment.forWorker(SHARDS, shuffle,
                                    new WorkerContext(w, workers, rank, world, 3, 42)));
                        }
                    }
                    assertThat(all).containsExactlyInAnyOrderElementsOf(SHARDS);
                }
            }
        }
    }

    @Test
    void withoutShuffleWorkerWReadsEveryWthShardLikeW5() {
        assertThat(ShardAssignment.forWorker(SHARDS, false, new WorkerContext(1, 2, 0, 1, 0, 0)))
                .containsExactly("s1", "s3", "s5", "s7", "s9", "s11", "s13", "s15", "s17", "s19", "s21");
    }

    @Test
    void theShardOrderChangesPerEpochAndIsTheSameForEveryone() {
        List<String> e0 = ShardAssignment.order(SHARDS, true, 7, 0);
        assertThat(e0).containsExactlyInAnyOrderElementsOf(SHARDS).isNotEqualTo(SHARDS);
        assertThat(ShardAssignment.order(SHARDS, true, 7, 0)).isEqualTo(e0);
        assertThat(ShardAssignment.order(SHARDS, true, 7, 1)).isNotEqualTo(e0);
        assertThat(ShardAssignment.order(SHARDS, true, 8, 0)).isNotEqualTo(e0);
    }
}
