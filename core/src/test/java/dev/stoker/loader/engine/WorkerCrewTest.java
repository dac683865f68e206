package dev.stoker.loader.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WorkerCrewTest {

    @Test
    void stoppingIsBoundedWhenAWorkerIgnoresInterrupts() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(2);
        WorkerCrew crew = new WorkerCrew(2);
        crew.submit(w -> {
            started.countDown();
            if (w.id() == 1) {
                w.working(7, new long[] {14, 15});
                while (true) { // a call that swallows interrupts, like some blocking I/O
                    try {
                        if (release.await(10, TimeUnit.SECONDS)) {
                            return;
                        }
                    } catch (InterruptedException ignored) {
                        // keep waiting
                    }
                }
            }
        });
        started.await();
        List<Worker> stuck = crew.stop(Duration.ofSeconds(1)); // worker 0 must end within it, on a loaded machine too
        assertThat(stuck).extracting(Worker::name).containsExactly("stoker-worker-1");
        assertThat(WorkerCrew.describe(stuck)).startsWith("stoker-worker-1 (on batch 7 for ");
        assertThat(crew.worker(0).thread().isAlive()).isFalse();
        assertThat(crew.worker(1).thread().isDaemon()).isTrue();
        release.countDown();
        crew.worker(1).thread().join();
        assertThat(crew.stop(Duration.ofMillis(100))).isEmpty();
    }

    @Test
    void workersThatEndedAreNotNamedAfterAnEarlierOneUsedTheGrace() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(3);
        WorkerCrew crew = new WorkerCrew(3);
        crew.submit(w -> {
            started.countDown();
            while (w.id() == 0) { // worker 0 ignores interrupts; 1 and 2 end at once
                try {
                    if (release.await(10, TimeUnit.SECONDS)) {
                        return;
                    }
                } catch (InterruptedException ignored) {
                    // keep waiting
                }
            }
        });
        started.await();
        // spent waiting on worker 0, while 1 and 2 end (within a second, on a loaded machine too)
        List<Worker> stuck = crew.stop(Duration.ofSeconds(1));
        assertThat(stuck).extracting(Worker::name).containsExactly("stoker-worker-0");
        release.countDown();
        crew.worker(0).thread().join();
    }
}
