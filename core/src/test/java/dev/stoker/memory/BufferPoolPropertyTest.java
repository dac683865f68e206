package dev.stoker.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Laws of the pool over seeded random acquire/release sequences: the reserved bytes never pass the
 * budget, the lent bytes are what the holders hold, and no two buffers held at once overlap.
 */
@Timeout(120)
class BufferPoolPropertyTest {
    private static final long BUDGET = 4L << 20;

    /** A request size spread over every size-class regime: tiny, small, large, near the budget. */
    private static long size(SplittableRandom random) {
        return switch (random.nextInt(4)) {
            case 0 -> random.nextLong(1, 128);
            case 1 -> random.nextLong(128, 8192);
            case 2 -> random.nextLong(8192, 512 * 1024);
            default -> random.nextLong(512 * 1024, BUDGET / 2);
        };
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 42, 2024, 777_777})
    void singleThreadedSequencesKeepTheLaws(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        try (BufferPool pool = BufferPool.builder().budgetBytes(BUDGET).acquireTimeout(Duration.ZERO).build()) {
            List<PooledBuffer> held = new ArrayList<>();
            for (int step = 0; step < 2_000; step++) {
                if (held.isEmpty() || random.nextInt(100) < 55) {
                    long bytes = size(random);
                    try {
                        PooledBuffer b = pool.acquire(bytes, "step " + step);
                        assertThat(b.byteSize()).isEqualTo(bytes);
                        held.add(b);
                    } catch (PoolExhaustedException e) {
                        // only when what is held leaves no room
                        long lent = held.stream().mapToLong(b -> BufferPool.classBytes(b.byteSize())).sum();
                        assertThat(lent + BufferPool.classBytes(bytes)).isGreaterThan(BUDGET);
                    }
                } else {
                    held.remove(random.nextInt(held.size())).close();
                }
                assertThat(pool.reservedBytes()).isLessThanOrEqualTo(BUDGET);
                assertThat(pool.lentBytes())
                        .isEqualTo(held.stream().mapToLong(b -> BufferPool.classBytes(b.byteSize())).sum());
                assertThat(pool.lentCount()).isEqualTo(held.size());
                assertNoOverlap(held);
            }
            assertThat(pool.peakReservedBytes()).isLessThanOrEqualTo(BUDGET);
            held.forEach(PooledBuffer::close);
            pool.close();
            assertThat(pool.reservedBytes()).isZero();
        }
    }

    private static void assertNoOverlap(List<PooledBuffer> held) {
        TreeMap<Long, Long> ranges = new TreeMap<>();
        for (PooledBuffer b : held) {
            ranges.put(b.segment().address(), b.segment().address() + b.byteSize());
        }
        assertThat(ranges).hasSameSizeAs(held);
        long end = Long.MIN_VALUE;
        for (Map.Entry<Long, Long> r : ranges.entrySet()) {
            assertThat(r.getKey()).isGreaterThanOrEqualTo(end);
            end = r.getValue();
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {7, 99, 12345})
    void concurrentHoldersNeverShareMemoryOrPassTheBudget(long seed) throws Exception {
        int threads = 8;
        BufferPool pool = BufferPool.builder().budgetBytes(BUDGET).acquireTimeout(Duration.ofMillis(20)).build();
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        AtomicBoolean running = new AtomicBoolean(true);
        ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        CountDownLatch go = new CountDownLatch(1);
        try {
            // A watcher samples the reserved bytes while the workers run.
            Future<?> watcher = executor.submit(() -> {
                while (running.get()) {
                    long reserved = pool.reservedBytes();
                    if (reserved > BUDGET) violations.add("reserved " + reserved + " > budget " + BUDGET);
                    Thread.onSpinWait();
                }
            });
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < threads - 1; t++) {
                SplittableRandom random = new SplittableRandom(seed * 31 + t);
                byte mark = (byte) (t + 1);
                workers.add(executor.submit(() -> {
                    go.await();
                    List<PooledBuffer> mine = new ArrayList<>();
                    for (int step = 0; step < 400; step++) {
                        if (mine.size() < 3 && random.nextBoolean()) {
                            try {
                                PooledBuffer b = pool.acquire(size(random) / 4 + 1, "worker " + mark);
                                // Stamp the whole buffer with this worker's mark: if another
                                // holder shared any byte of it, the check below sees its mark.
                                b.segment().fill(mark);
                                mine.add(b);
                            } catch (PoolExhaustedException e) {
                                // back-pressure ran out of patience; give memory back and go on
                                if (!mine.isEmpty()) mine.remove(0).close();
                            }
                        } else if (!mine.isEmpty()) {
                            PooledBuffer b = mine.remove(random.nextInt(mine.size()));
                            check(b.segment(), mark, violations);
                            b.close();
                        }
                    }
                    for (PooledBuffer b : mine) {
                        check(b.segment(), mark, violations);
                        b.close();
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> w : workers) w.get(100, TimeUnit.SECONDS);
            running.set(false);
            watcher.get(10, TimeUnit.SECONDS);
        } finally {
            running.set(false);
            executor.shutdownNow();
        }
        assertThat(violations).isEmpty();
        assertThat(pool.peakReservedBytes()).isLessThanOrEqualTo(BUDGET);
        assertThat(pool.lentCount()).isZero();
        pool.close();
        assertThat(pool.reservedBytes()).isZero();
    }

    private static void check(MemorySegment segment, byte mark, ConcurrentLinkedQueue<String> violations) {
        long stride = Math.max(1, segment.byteSize() / 4096);
        for (long i = 0; i < segment.byteSize(); i += stride) {
            byte seen = segment.get(ValueLayout.JAVA_BYTE, i);
            if (seen != mark) {
                violations.add("worker " + mark + " found byte " + seen + " at offset " + i + " of its buffer");
                return;
            }
        }
    }
}
