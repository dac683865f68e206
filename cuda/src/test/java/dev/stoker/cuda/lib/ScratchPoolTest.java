package dev.stoker.cuda.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScratchPoolTest {

    /**
     * A stand-in GPU: each stream has a position that advances only when the test says so; an
     * event has passed once its stream's position is at or beyond the point it was recorded at.
     */
    static final class FakeGpu implements ScratchPool.Memory {
        final Map<Long, Long> queued = new HashMap<>();   // stream -> work items queued so far
        final Map<Long, Long> finished = new HashMap<>(); // stream -> work items finished so far
        final Map<Long, long[]> events = new HashMap<>(); // event -> {stream, point}
        final Set<Long> live = new HashSet<>();
        final List<Long> freed = new ArrayList<>();
        long next = 4096;
        long nextEvent = 1;

        void queue(long stream) {
            queued.merge(stream, 1L, Long::sum);
        }

        void finishAll(long stream) {
            finished.put(stream, queued.getOrDefault(stream, 0L));
        }

        @Override
        public long allocate(long bytes) {
            long a = next;
            next += bytes + 4096;
            live.add(a);
            return a;
        }

        @Override
        public void free(long address) {
            assertThat(live.remove(address)).as("freed once, and only what was allocated").isTrue();
            freed.add(address);
        }

        @Override
        public long newEvent() {
            long e = nextEvent++;
            events.put(e, new long[] {-1, 0});
            return e;
        }

        @Override
        public void record(long event, long stream) {
            events.put(event, new long[] {stream, queued.getOrDefault(stream, 0L)});
        }

        @Override
        public boolean passed(long event) {
            long[] e = events.get(event);
            return e[0] < 0 || finished.getOrDefault(e[0], 0L) >= e[1];
        }

        @Override
        public void destroyEvent(long event) {
            assertThat(events.remove(event)).isNotNull();
        }
    }

    @Test
    void aBlockGivenBackIsReusedOnItsOwnStreamAtOnceAndOnAnotherOnlyOnceTheGpuHasPassedTheFree() {
        FakeGpu gpu = new FakeGpu();
        ScratchPool pool = new ScratchPool("test", gpu, 1L << 30);
        long a = pool.allocate(1000, 7);
        gpu.queue(7); // work on stream 7 reads the block
        pool.free(a, 7);
        assertThat(pool.allocate(1000, 8)).as("stream 8 may not have it while stream 7's work is pending").isNotEqualTo(a);
        assertThat(pool.allocate(900, 7)).as("stream 7's later work runs after its earlier work").isEqualTo(a);
        pool.free(a, 7);
        gpu.finishAll(7);
        assertThat(pool.allocate(1000, 9)).isEqualTo(a);
        assertThat(pool.allocations()).isEqualTo(2);
        assertThat(pool.reuses()).isEqualTo(2);
    }

    @Test
    void aSmallRequestDoesNotTakeAMuchLargerBlock() {
        FakeGpu gpu = new FakeGpu();
        ScratchPool pool = new ScratchPool("test", gpu, 1L << 30);
        long big = pool.allocate(1 << 20, 1);
        pool.free(big, 1);
        long small = pool.allocate(4096, 1);
        assertThat(small).isNotEqualTo(big);
        assertThat(pool.allocate(600_000, 1)).as("within twice the size asked for").isEqualTo(big);
    }

    @Test
    void sizesOfOneBatchAndTheNextShareABlock() {
        assertThat(ScratchPool.sizeClass(1)).isEqualTo(256);
        assertThat(ScratchPool.sizeClass(6_100_000)).isEqualTo(ScratchPool.sizeClass(6_200_000));
        for (long b = 1; b < 1L << 40; b = b * 3 + 1) {
            long c = ScratchPool.sizeClass(b);
            assertThat(c).isGreaterThanOrEqualTo(b).isLessThanOrEqualTo(b + Math.max(255, b / 8)).isEqualTo(
                    ScratchPool.sizeClass(c));
        }
    }

    @Test
    void overItsLimitThePoolFreesOnlyBlocksTheGpuIsDoneWith() {
        FakeGpu gpu = new FakeGpu();
        ScratchPool pool = new ScratchPool("test", gpu, 3 * 4096);
        long a = pool.allocate(4096, 1);
        long b = pool.allocate(4096, 2);
        gpu.queue(1);
        gpu.queue(2);
        pool.free(a, 1);
        pool.free(b, 2);
        gpu.finishAll(2);
        pool.allocate(8192, 3); // needs room: b's free has passed, a's has not
        assertThat(gpu.freed).containsExactly(b);
        assertThat(gpu.live).contains(a);
    }

    @Test
    void closingFreesEveryBlockAndEventAndRefusesLaterRequests() {
        FakeGpu gpu = new FakeGpu();
        ScratchPool pool = new ScratchPool("test", gpu, 1L << 30);
        pool.allocate(100, 1);
        long b = pool.allocate(5000, 1);
        pool.free(b, 1);
        pool.close();
        assertThat(gpu.live).isEmpty();
        assertThat(gpu.events).isEmpty();
        assertThatThrownBy(() -> pool.allocate(1, 1)).isInstanceOf(IllegalStateException.class).hasMessageContaining("test");
        assertThat(pool.free(12345, 1)).isFalse();
    }

    /** Random requests on random streams, the GPU advancing at random: no block is ever in two hands, or reused too early. */
    @Test
    void noBlockIsHandedOutWhileInUseOrBeforeItsFreeIsSafe() {
        for (long seed = 1; seed <= 40; seed++) {
            Random r = new Random(seed);
            FakeGpu gpu = new FakeGpu();
            ScratchPool pool = new ScratchPool("test", gpu, r.nextBoolean() ? 1L << 30 : 200_000);
            Map<Long, Long> held = new HashMap<>();        // address -> stream using it
            Map<Long, long[]> givenBack = new HashMap<>(); // address -> {stream, point its work was queued to}
            for (int step = 0; step < 400; step++) {
                long stream = 1 + r.nextInt(3);
                switch (r.nextInt(4)) {
                    case 0, 1 -> {
                        long a = pool.allocate(1 + r.nextInt(60_000), stream);
                        assertThat(held).as("seed %d step %d", seed, step).doesNotContainKey(a);
                        long[] gb = givenBack.remove(a);
                        if (gb != null && gb[0] != stream) {
                            assertThat(gpu.finished.getOrDefault(gb[0], 0L)).as("seed %d step %d: reused before the"
                                    + " GPU passed its free", seed, step).isGreaterThanOrEqualTo(gb[1]);
                        }
                        held.put(a, stream);
                        gpu.queue(stream);
                    }
                    case 2 -> {
                        if (!held.isEmpty()) {
                            long a = new ArrayList<>(held.keySet()).get(r.nextInt(held.size()));
                            long s = held.remove(a);
                            assertThat(pool.free(a, s)).isTrue();
                            givenBack.put(a, new long[] {s, gpu.queued.getOrDefault(s, 0L)});
                        }
                    }
                    default -> gpu.finishAll(stream);
                }
            }
            assertThat(pool.inUse()).isEqualTo(held.size());
            pool.close();
            assertThat(gpu.live).isEmpty();
        }
    }
}
