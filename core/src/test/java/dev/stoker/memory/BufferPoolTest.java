package dev.stoker.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class BufferPoolTest {

    private static BufferPool pool(long budget, Duration timeout) {
        return BufferPool.builder().name("test").budgetBytes(budget).acquireTimeout(timeout).build();
    }

    @Test
    void buffersAreExactlyAsLongAsAskedAndUsable() {
        try (BufferPool pool = pool(1 << 20, Duration.ofSeconds(1));
                PooledBuffer b = pool.acquire(1000, "batch 0")) {
            assertThat(b.byteSize()).isEqualTo(1000);
            assertThat(b.owner()).isEqualTo("batch 0");
            b.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, 992, 42L);
            assertThat(b.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, 992)).isEqualTo(42L);
            assertThat(pool.lentBytes()).isEqualTo(BufferPool.classBytes(1000));
            assertThat(pool.lentCount()).isEqualTo(1);
        }
    }

    @Test
    void returnedBuffersAreReusedBySizeClass() {
        try (BufferPool pool = pool(1 << 20, Duration.ofSeconds(1))) {
            long address;
            try (PooledBuffer b = pool.acquire(1000)) {
                address = b.segment().address();
            }
            assertThat(pool.idleCount()).isEqualTo(1);
            try (PooledBuffer b = pool.acquire(900)) { // same class (1 KiB)
                assertThat(b.segment().address()).isEqualTo(address);
                assertThat(b.byteSize()).isEqualTo(900);
            }
            assertThat(pool.stats().allocations()).isEqualTo(1);
            assertThat(pool.stats().reuses()).isEqualTo(1);
            try (PooledBuffer b = pool.acquire(5000)) { // another class: a new block
                assertThat(b.byteSize()).isEqualTo(5000);
            }
            assertThat(pool.stats().allocations()).isEqualTo(2);
            assertThat(pool.stats().reuses()).isEqualTo(1);
            assertThat(pool.reservedBytes()).isEqualTo(BufferPool.classBytes(1000) + BufferPool.classBytes(5000));
        }
    }

    @Test
    void aShortRequestForAFullBlockReusesTheIdleFullBlock() {
        long full = 64L * 602_112, tail = 16L * 602_112; // W3's batch of 64 images and its last batch of 16
        try (BufferPool pool = pool(1L << 30, Duration.ofSeconds(1))) {
            long address;
            try (PooledBuffer b = pool.acquire(full)) {
                address = b.segment().address();
            }
            try (PooledBuffer b = pool.acquire(tail, full, "the last batch")) {
                assertThat(b.segment().address()).isEqualTo(address);
                assertThat(b.byteSize()).isEqualTo(tail);
                assertThat(pool.lentBytes()).isEqualTo(BufferPool.classBytes(full));
            }
            assertThat(pool.stats().allocations()).isEqualTo(1);
            assertThat(pool.stats().reuses()).isEqualTo(1);
            assertThat(pool.reservedBytes()).isEqualTo(BufferPool.classBytes(full));
            try (PooledBuffer b = pool.acquire(full)) { // given back under the full class
                assertThat(b.segment().address()).isEqualTo(address);
            }
            try (PooledBuffer b = pool.acquire(tail)) { // asked for alone: a block of its own
                assertThat(b.segment().address()).isNotEqualTo(address);
            }
            assertThat(pool.stats().allocations()).isEqualTo(2);
        }
    }

    @Test
    void aFullBlockThatCouldNeverFitTheBudgetGivesWayToTheBuffersOwnClass() {
        try (BufferPool pool = pool(1 << 20, Duration.ofHours(1));
                PooledBuffer b = pool.acquire(1000, 4L << 20, "the only batch, short")) {
            assertThat(b.byteSize()).isEqualTo(1000);
            assertThat(pool.lentBytes()).isEqualTo(BufferPool.classBytes(1000));
        }
        try (BufferPool pool = pool(1 << 20, Duration.ofSeconds(1))) {
            assertThatThrownBy(() -> pool.acquire(1000, 999, "x"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cannot hold 1000");
        }
    }

    @Test
    void buffersAreCacheLineAlignedAndPageAlignedFrom64KiB() {
        try (BufferPool pool = pool(64L << 20, Duration.ofSeconds(1))) {
            List<PooledBuffer> held = new ArrayList<>();
            for (long size : new long[] {1, 63, 64, 65, 100, 4095, 4097, 10_000, 65_535, 65_536, 100_000, 1 << 20, 3_000_001}) {
                PooledBuffer b = pool.acquire(size);
                held.add(b);
                assertThat(b.segment().address() % 64).as("size %d", size).isZero();
                if (size >= 64 * 1024) {
                    assertThat(b.segment().address() % 4096).as("size %d", size).isZero();
                }
            }
            held.forEach(PooledBuffer::close);
        }
    }

    @Test
    void idleBuffersOfOtherSizesAreFreedToMakeRoom() {
        long budget = 1 << 20;
        try (BufferPool pool = pool(budget, Duration.ofMillis(100))) {
            pool.acquire(600_000).close();
            assertThat(pool.reservedBytes()).isEqualTo(BufferPool.classBytes(600_000));
            try (PooledBuffer b = pool.acquire(700_000)) {
                assertThat(pool.reservedBytes()).isEqualTo(BufferPool.classBytes(700_000)).isLessThanOrEqualTo(budget);
                assertThat(pool.idleCount()).isZero();
            }
        }
    }

    @Test
    void anAcquireWaitsUntilAnotherBufferComesBack() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try (BufferPool pool = pool(1 << 20, Duration.ofSeconds(60))) {
            PooledBuffer first = pool.acquire(800_000, "holder");
            CountDownLatch started = new CountDownLatch(1);
            AtomicReference<Thread> waiter = new AtomicReference<>();
            Future<PooledBuffer> second = executor.submit(() -> {
                waiter.set(Thread.currentThread());
                started.countDown();
                return pool.acquire(800_000, "waiter");
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            // Wait (bounded by the class timeout) until the waiter is parked inside acquire.
            while (waiter.get().getState() != Thread.State.TIMED_WAITING) {
                Thread.onSpinWait();
            }
            assertThat(second.isDone()).isFalse();
            assertThat(pool.lentCount()).isEqualTo(1);
            first.close();
            try (PooledBuffer b = second.get(10, TimeUnit.SECONDS)) {
                assertThat(b.owner()).isEqualTo("waiter");
                assertThat(pool.reservedBytes()).isLessThanOrEqualTo(pool.budgetBytes());
                assertThat(pool.stats().reuses()).as("the returned block is handed on").isEqualTo(1);
            }
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void exhaustionAfterTheTimeoutNamesTheBudgetAndTheHolders() {
        try (BufferPool pool = pool(1_000_000, Duration.ofMillis(50))) {
            PooledBuffer a = pool.acquire(500_000, "batch 7");
            PooledBuffer b = pool.acquire(300_000, "batch 8");
            assertThatThrownBy(() -> pool.acquire(400_000, "batch 9"))
                    .isInstanceOf(PoolExhaustedException.class)
                    .hasMessageContaining("pool 'test'")
                    .hasMessageContaining("budget of " + Bytes.format(1_000_000))
                    .hasMessageContaining("batch 7")
                    .hasMessageContaining("batch 8")
                    .hasMessageContaining("2 buffers");
            assertThat(pool.reservedBytes()).isLessThanOrEqualTo(1_000_000);
            assertThat(pool.lentCount()).isEqualTo(2);
            a.close();
            b.close();
        }
    }

    @Test
    void aBufferLargerThanTheBudgetFailsAtOnce() {
        // the timeout is far longer than the test's: failing must not wait for it
        try (BufferPool pool = pool(1 << 20, Duration.ofHours(1))) {
            assertThatThrownBy(() -> pool.acquire((1 << 20) + 1, "huge"))
                    .isInstanceOf(PoolExhaustedException.class)
                    .hasMessageContaining("larger than the whole budget");
            assertThat(pool.reservedBytes()).isZero();
        }
    }

    @Test
    void theLeakReportListsUnclosedBuffersByOwner() {
        try (BufferPool pool = BufferPool.builder().budgetBytes(1 << 20).recordStacks(true).build()) {
            PooledBuffer a = pool.acquire(100, "batch 1");
            PooledBuffer b = pool.acquire(200, "batch 2");
            a.close();
            List<String> leaks = pool.leaks();
            assertThat(leaks).hasSize(1);
            assertThat(leaks.getFirst()).contains("held by batch 2").contains("200 B").contains("at ");
            b.close();
            assertThat(pool.leaks()).isEmpty();
        }
    }

    @Test
    void everythingIsFreedOnceBuffersAndPoolAreClosed() {
        BufferPool pool = pool(8 << 20, Duration.ofSeconds(1));
        List<PooledBuffer> held = new ArrayList<>();
        for (int i = 1; i <= 10; i++) held.add(pool.acquire(i * 10_000L, "batch " + i));
        held.forEach(PooledBuffer::close);
        assertThat(pool.reservedBytes()).isPositive();
        pool.close();
        assertThat(pool.reservedBytes()).isZero();
        assertThat(pool.idleCount()).isZero();
        pool.close(); // twice is harmless
    }

    @Test
    void aBufferClosedAfterThePoolIsFreed() {
        BufferPool pool = pool(1 << 20, Duration.ofSeconds(1));
        PooledBuffer idle = pool.acquire(1000);
        PooledBuffer late = pool.acquire(100_000, "late batch");
        idle.close();
        pool.close();
        assertThat(pool.reservedBytes()).isEqualTo(BufferPool.classBytes(100_000));
        assertThat(pool.leaks()).singleElement().asString().contains("late batch");
        late.segment().fill((byte) 1); // still the holder's until it is closed
        late.close();
        assertThat(pool.reservedBytes()).isZero();
        assertThat(pool.leaks()).isEmpty();
        late.close();
        assertThat(pool.reservedBytes()).isZero();
    }

    @Test
    void aClosedPoolRefusesToLend() {
        BufferPool pool = pool(1 << 20, Duration.ofSeconds(1));
        pool.close();
        assertThatThrownBy(() -> pool.acquire(10)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void closingThePoolWakesAWaiterWithAnError() throws Exception {
        BufferPool pool = pool(1 << 20, Duration.ofSeconds(60));
        PooledBuffer held = pool.acquire(1 << 20);
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<Thread> waiter = new AtomicReference<>();
        CompletableFuture<Object> result = CompletableFuture.supplyAsync(() -> {
            waiter.set(Thread.currentThread());
            started.countDown();
            return pool.acquire(1 << 20);
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        while (waiter.get().getState() != Thread.State.TIMED_WAITING) {
            Thread.onSpinWait();
        }
        pool.close();
        assertThatThrownBy(() -> result.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(IllegalStateException.class);
        held.close();
        assertThat(pool.reservedBytes()).isZero();
    }

    @Test
    void closingABufferTwiceGivesItBackOnce() {
        try (BufferPool pool = pool(1 << 20, Duration.ofSeconds(1))) {
            PooledBuffer b = pool.acquire(1000);
            b.close();
            b.close();
            assertThat(b.isClosed()).isTrue();
            assertThat(pool.idleCount()).isEqualTo(1);
            assertThat(pool.lentBytes()).isZero();
        }
    }

    @Test
    void builderRejectsNonsense() {
        assertThatThrownBy(() -> BufferPool.builder().budgetBytes(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BufferPool.builder().acquireTimeout(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        try (BufferPool pool = pool(1 << 20, Duration.ofSeconds(1))) {
            assertThatThrownBy(() -> pool.acquire(-1)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    /** close() while an acquire allocates a fresh block outside the lock: the acquire fails and the block is freed. */
    @Test
    void anAcquireThatACloseOvertakesHandsNothingOut() throws Exception {
        java.util.concurrent.CountDownLatch allocating = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch goOn = new java.util.concurrent.CountDownLatch(1);
        AtomicReference<java.lang.foreign.Arena> block = new AtomicReference<>();
        MemorySource ordinary = MemorySources.ordinary();
        MemorySource slow = new MemorySource() {
            public Allocation allocate(long bytes, long alignment) {
                allocating.countDown();
                try {
                    goOn.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared();
                block.set(arena);
                return new Allocation(arena.allocate(bytes, alignment), arena, false);
            }

            public boolean isPageLocked() {
                return false;
            }

            public String describe() {
                return ordinary.describe();
            }
        };
        BufferPool pool = BufferPool.builder().name("overtaken").budgetBytes(1 << 20).source(slow).build();
        java.util.concurrent.CompletableFuture<PooledBuffer> acquired =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> pool.acquire(4096, "batch 0"));
        allocating.await();
        pool.close();
        goOn.countDown();
        assertThatThrownBy(acquired::join).hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("was closed while batch 0 waited");
        assertThat(pool.reservedBytes()).isZero();
        assertThat(pool.lentBytes()).isZero();
        assertThat(block.get().scope().isAlive()).isFalse(); // freed, not left to the GC
    }
}
