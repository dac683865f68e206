package dev.stoker.formats.lmdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Worker threads share one dataset; each gets its own read transaction, reused, ended on close. */
class LmdbConcurrentReadersTest {
    @Test
    void threadsReadTheSameSamplesWithOneTransactionEach() throws Exception {
        int threads = 6;
        try (LmdbDataset ds = LmdbDataset.open(LmdbDatasetTest.SMALL)) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<Integer>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    long seed = t;
                    done.add(pool.submit(() -> {
                        SplittableRandom random = new SplittableRandom(seed);
                        int checked = 0;
                        for (int k = 0; k < 2000; k++) {
                            int i = random.nextInt(LmdbDatasetTest.N);
                            LmdbSample s = ds.get(i);
                            assertThat(s.value()).isEqualTo(LmdbDatasetTest.expected(i));
                            assertThat(s.label()).isEqualTo(i * 3 % 5);
                            checked++;
                        }
                        return checked;
                    }));
                }
                for (Future<Integer> f : done) {
                    assertThat(f.get()).isEqualTo(2000);
                }
                // one transaction per reading thread, none left over from opening
                assertThat(ds.environment().openTransactions()).isEqualTo(threads);
            } finally {
                pool.shutdown();
            }
        }
    }

    @Test
    void transactionsOfDeadThreadsAreEnded() throws Exception {
        try (LmdbDataset ds = LmdbDataset.open(LmdbDatasetTest.SMALL)) {
            for (int round = 0; round < 20; round++) {
                Thread t = new Thread(() -> ds.get(1));
                t.start();
                t.join();
            }
            ds.get(2); // this thread's first read ends the dead threads' transactions
            assertThat(ds.environment().openTransactions()).isEqualTo(1);
        }
    }
}
