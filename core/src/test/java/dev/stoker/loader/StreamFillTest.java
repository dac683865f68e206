package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.FillableStreamingDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A fillable stream's batches are the batches the default collate makes of the equivalent samples,
 * with no sample tensor made: for any number of workers, with drop last, with bad samples skipped,
 * and with its memory back in the pool at the end.
 */
class StreamFillTest {
    private static final SampleLayout LAYOUT = SampleLayout.of(
            new SampleLayout.Field("x", DType.F32, Shape.of(3)),
            new SampleLayout.Field("y", DType.I64, Shape.scalar()));

    @AfterEach
    void noWorkerLeft() {
        assertThat(WorkerThreads.alive()).isEmpty();
    }

    /** Worker w's stream yields w, w + W, ... below n; sample i is x = (i, i / 2, a draw), y = i. */
    private static SampleStream<Long> numbers(WorkerContext ctx, long n) {
        return SampleStream.of(LongStream.iterate(ctx.globalWorkerId(), i -> i < n, i -> i + ctx.globalWorkers())
                .boxed().iterator());
    }

    private static final class Filled implements FillableStreamingDataset<Long> {
        final long n;
        final long bad;
        final AtomicLong fills = new AtomicLong();

        Filled(long n, long bad) {
            this.n = n;
            this.bad = bad;
        }

        @Override
        public SampleStream<Long> open(WorkerContext ctx) {
            return numbers(ctx, n);
        }

        @Override
        public SampleLayout layout() {
            return LAYOUT;
        }

        @Override
        public void fill(Long i, SampleSlot slot) {
            fills.incrementAndGet();
            float draw = WorkerContext.currentRandom().nextInt(1000);
            if (i == bad) {
                throw new IllegalStateException("bad sample " + i);
            }
            Tensor x = slot.tensor("x");
            x.setFloat(0, i);
            x.setFloat(1, i / 2f);
            x.setFloat(2, draw);
            slot.tensor("y").setLong(0, i);
        }
    }

    /** The same samples as maps, made in the stream and collated. */
    private static StreamingDataset<Map<String, Object>> collated(long n) {
        return ctx -> {
            SampleStream<Long> in = numbers(ctx, n);
            return new SampleStream<>() {
                public boolean hasNext() {
                    return in.hasNext();
                }

                public Map<String, Object> next() {
                    long i = in.next();
                    float draw = WorkerContext.currentRandom().nextInt(1000);
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("x", new float[] {i, i / 2f, draw});
                    m.put("y", i);
                    return m;
                }

                public void close() {}
            };
        };
    }

    private static List<String> pass(DataLoader<?> loader) {
        List<String> out = new ArrayList<>();
        for (Batch b : loader) {
            try (b) {
                out.add(b.index() + ":" + Arrays.toString(b.tensor("x").toFloatArray()) + "/"
                        + Arrays.toString(b.tensor("y").toLongArray()));
            }
        }
        return out;
    }

    @Test
    void aFilledStreamGivesTheCollatedBatches() {
        Random random = new Random(3);
        for (int trial = 0; trial < 40; trial++) {
            long n = random.nextInt(70);
            int batch = 1 + random.nextInt(9);
            int workers = random.nextInt(4);
            boolean dropLast = random.nextBoolean();
            String what = "trial " + trial + ": n " + n + ", batch " + batch + ", workers " + workers + ", drop last "
                    + dropLast;
            Filled filled = new Filled(n, -1);
            List<String> viaFill;
            try (DataLoader<Long> a = DataLoader.builder(filled).batchSize(batch).numWorkers(workers).seed(trial)
                    .dropLast(dropLast).build()) {
                assertThat(a.inFlightBound().measured()).as("known before the first batch").isFalse();
                viaFill = pass(a);
                assertThat(a.pool().lentBytes()).isZero();
            }
            try (DataLoader<Map<String, Object>> b = DataLoader.builder(collated(n)).batchSize(batch)
                    .numWorkers(workers).seed(trial).dropLast(dropLast).build()) {
                assertThat(viaFill).as(what).isEqualTo(pass(b));
            }
        }
    }

    @Test
    void theFillPathMakesNoSampleObjectsAndSkipsBadOnes() {
        Filled filled = new Filled(20, 7);
        try (DataLoader<Long> loader = DataLoader.builder(filled).batchSize(5).numWorkers(2)
                .onBadSample(SamplePolicy.SKIP).build()) {
            List<Long> ys = new ArrayList<>();
            for (Batch b : loader) {
                try (b) {
                    assertThat(b.data()).isInstanceOf(Map.class);
                    for (long y : b.tensor("y").toLongArray()) ys.add(y);
                }
            }
            assertThat(ys).hasSize(19).doesNotContain(7L).doesNotHaveDuplicates();
            assertThat(loader.stats().skippedSamples()).isEqualTo(1);
            assertThat(filled.fills.get()).isEqualTo(20);
        }
    }
}
