package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.CountingDataset;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.memory.BufferPool;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A loader (or its pass) closed from another thread at random points while the consumer
 * iterates: no batch is lost (the pool is empty after every round), {@code next()} never throws
 * {@code NoSuchElementException} after {@code hasNext()} said true, and a stream is never closed
 * while the consumer reads it.
 */
class ConcurrentCloseTest {
    private static final int ROUNDS = 150;

    /** A stream of {@code i} that notices a close while a read is under way, and a read after its close. */
    private static final class Watched implements StreamingDataset<Long> {
        final ConcurrentLinkedQueue<String> misuse = new ConcurrentLinkedQueue<>();
        final AtomicInteger open = new AtomicInteger();

        @Override
        public SampleStream<Long> open(WorkerContext ctx) {
            open.incrementAndGet();
            return new SampleStream<>() {
                final AtomicBoolean reading = new AtomicBoolean();
                final AtomicBoolean closed = new AtomicBoolean();
                long i;

                public boolean hasNext() {
                    return i < 400;
                }

                public Long next() {
                    if (closed.get()) misuse.add("read after close");
                    reading.set(true);
                    try {
                        Thread.onSpinWait();
                        return i++;
                    } finally {
                        reading.set(false);
                    }
                }

                public void close() {
                    if (reading.get()) misuse.add("closed while the consumer was reading");
                    if (closed.compareAndSet(false, true)) open.decrementAndGet();
                }
            };
        }
    }

    @ParameterizedTest(name = "{0} workers, streaming {1}, closing the {2}")
    @CsvSource({"0, false, loader", "0, false, pass", "2, false, loader", "3, false, pass",
                "0, true, loader", "0, true, pass", "2, true, loader", "2, true, pass"})
    void closingFromAnotherThreadLosesNoBatch(int workers, boolean streaming, String what) throws Exception {
        List<String> failures = new ArrayList<>();
        try (BufferPool pool = BufferPool.builder().name("close-test").budgetBytes(64L << 20).build()) {
            for (int round = 0; round < ROUNDS; round++) {
                Random random = new Random(round * 31L + workers);
                Watched stream = new Watched();
                CountingDataset map = new CountingDataset(400);
                LoaderBuilder<Long> builder = streaming ? DataLoader.builder((StreamingDataset<Long>) stream)
                        : DataLoader.builder(map).shuffle(true).seed(round);
                DataLoader<Long> loader = builder.batchSize(1 + random.nextInt(8)).numWorkers(workers)
                        .prefetchFactor(1 + random.nextInt(3)).inOrder(random.nextBoolean()).pool(pool).build();
                BatchIterator it = loader.iterator();
                AtomicLong taken = new AtomicLong();
                AtomicBoolean wrong = new AtomicBoolean();
                ConcurrentLinkedQueue<Throwable> thrown = new ConcurrentLinkedQueue<>();
                Thread consumer = Thread.ofPlatform().start(() -> {
                    try {
                        while (it.hasNext()) {
                            try (Batch b = it.next()) {
                                taken.incrementAndGet();
                            } catch (NoSuchElementException e) {
                                wrong.set(true); // hasNext() said true
                                return;
                            }
                        }
                    } catch (Throwable t) {
                        thrown.add(t);
                    }
                });
                long after = random.nextInt(6);
                int spins = random.nextInt(20_000);
                while (taken.get() < after && consumer.isAlive()) {
                    Thread.onSpinWait();
                }
                for (int s = 0; s < spins; s++) {
                    Thread.onSpinWait();
                }
                if (what.equals("loader")) {
                    loader.close();
                } else {
                    it.close();
                }
                consumer.join();
                loader.close();
                String at = "round " + round + ": ";
                if (wrong.get()) failures.add(at + "NoSuchElementException after hasNext() was true");
                thrown.forEach(t -> failures.add(at + "the consumer got " + t));
                if (pool.lentBytes() != 0) failures.add(at + "batches never given back: " + pool.leaks());
                stream.misuse.forEach(m -> failures.add(at + m));
                if (stream.open.get() != 0) failures.add(at + stream.open.get() + " stream(s) left open");
                if (!failures.isEmpty()) {
                    break; // a leak stays in the pool: the rounds after it would repeat it
                }
            }
            assertThat(failures).isEmpty();
            assertThat(WorkerThreads.alive()).isEmpty();
        }
    }
}
