package dev.stoker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The process's CPU time: readable while the background preparation runs, from any thread, and it only grows. */
class ProcessCpuTest {

    @Test
    void readingsDuringAndAfterTheBackgroundPreparationAgreeAndGrow() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<long[]>> readings = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                readings.add(pool.submit(() -> {
                    go.await();
                    ProcessCpu.prepareInBackground(); // at once from every thread: still one preparation
                    long first = ProcessCpu.nanos();
                    long spin = 0;
                    for (int i = 0; i < 2_000_000; i++) {
                        spin += i ^ spin;
                    }
                    return new long[] {first, ProcessCpu.nanos(), spin};
                }));
            }
            go.countDown();
            for (Future<long[]> f : readings) {
                long[] r = f.get();
                assertThat(r[0]).isPositive(); // this JVM on Linux says
                assertThat(r[1]).isGreaterThanOrEqualTo(r[0]);
            }
        } finally {
            pool.shutdown();
        }
        assertThat(ProcessCpu.nanos()).isPositive();
    }
}
