package dev.stoker.loader.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** The I/O mode's resizable count of fetches at once: grown and shrunk while fetches run. */
class IoLimitTest {

    @Test
    void shrinkingNeverBlocksAndTakesEffectAsTheFetchesUnderWayEnd() throws InterruptedException {
        IoLimit limit = IoLimit.of(4);
        for (int i = 0; i < 4; i++) {
            limit.acquire(); // four fetches under way
        }
        limit.resize(1); // on the tuner's thread: returns at once though all four permits are out
        assertThat(limit.size()).isEqualTo(1);
        assertThat(limit.available()).isEqualTo(-3);
        assertThat(limit.tryAcquire(0, TimeUnit.NANOSECONDS)).isFalse();
        for (int i = 0; i < 3; i++) {
            limit.release();
            assertThat(limit.tryAcquire(0, TimeUnit.NANOSECONDS)).as("after %d ended", i + 1).isFalse();
        }
        limit.release(); // the last of the four: one may start now, and only one
        assertThat(limit.tryAcquire(0, TimeUnit.NANOSECONDS)).isTrue();
        assertThat(limit.tryAcquire(0, TimeUnit.NANOSECONDS)).isFalse();
        limit.resize(3); // growing lets two more start at once
        assertThat(limit.tryAcquire(0, TimeUnit.NANOSECONDS)).isTrue();
        assertThat(limit.tryAcquire(0, TimeUnit.NANOSECONDS)).isTrue();
        assertThat(limit.tryAcquire(0, TimeUnit.NANOSECONDS)).isFalse();
    }

    @Test
    void underRandomResizesWhileFetchesRunNoPermitIsLostOrMadeAndTheCountHolds() throws InterruptedException {
        SplittableRandom r = new SplittableRandom(22);
        IoLimit limit = IoLimit.of(8);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger over = new AtomicInteger(); // fetches that started with more running than the largest count set
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> fetchers = new ArrayList<>();
        for (int t = 0; t < 64; t++) {
            fetchers.add(Thread.ofVirtual().start(() -> {
                while (!stop.get()) {
                    try {
                        if (!limit.tryAcquire(1, TimeUnit.MILLISECONDS)) {
                            continue;
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                    try {
                        int now = running.incrementAndGet();
                        if (now > 40) { // 64 fetchers, counts of 1 to 40: a permit made by a resize shows here
                            over.incrementAndGet();
                        }
                        LockSupport.parkNanos(20_000);
                    } finally {
                        running.decrementAndGet();
                        limit.release();
                    }
                }
            }));
        }
        for (int i = 0; i < 300; i++) {
            limit.resize(1 + r.nextInt(40));
            LockSupport.parkNanos(r.nextInt(200_000));
        }
        // settle at 2: once the fetches over it end, never more than 2 run at once
        limit.resize(2);
        CountDownLatch watched = new CountDownLatch(1);
        AtomicInteger mostAfter = new AtomicInteger();
        Thread watcher = Thread.ofPlatform().start(() -> {
            long until = System.nanoTime() + 50_000_000;
            while (System.nanoTime() < until) {
                if (limit.available() >= 0) { // the shrink has taken effect: every fetch now holds a permit of 2
                    mostAfter.accumulateAndGet(running.get(), Math::max);
                }
            }
            watched.countDown();
        });
        watched.await();
        watcher.join();
        stop.set(true);
        for (Thread f : fetchers) {
            f.join();
        }
        assertThat(over.get()).isZero();
        assertThat(mostAfter.get()).isLessThanOrEqualTo(2);
        assertThat(running.get()).isZero();
        assertThat(limit.available()).as("every permit back, none made").isEqualTo(limit.size()).isEqualTo(2);
    }

    @Test
    void aCountBelowOneIsRefused() {
        assertThatThrownBy(() -> IoLimit.of(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ioConcurrency must be positive, not 0");
        assertThatThrownBy(() -> IoLimit.of(2).resize(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
