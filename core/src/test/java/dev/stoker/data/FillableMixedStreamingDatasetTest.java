package dev.stoker.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderState;
import dev.stoker.loader.ResumeRuns;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Fillable sources mixed by weight, each sample filled by the source it was drawn from. */
class FillableMixedStreamingDatasetTest {
    private static final SampleLayout ONE_LONG = SampleLayout.single(new SampleLayout.Field("v", DType.I64, Shape.scalar()));

    /** Worker w's share of 0..n-1; fills each sample as {@code sign * (i + 1)}. */
    private record Signed(long n, long sign, SampleLayout layout) implements FillableStreamingDataset<Long> {
        @Override
        public SampleStream<Long> open(WorkerContext ctx) {
            return SampleStream.of(LongStream.range(0, n).filter(i -> i % ctx.globalWorkers() == ctx.globalWorkerId())
                    .boxed().iterator());
        }

        @Override
        public void fill(Long i, SampleSlot slot) {
            slot.tensor(0).setLong(0, sign * (i + 1));
        }
    }

    private static List<String> run(FillableMixedStreamingDataset<Long> mix, int workers, long[] counts) {
        List<String> out = new ArrayList<>();
        try (DataLoader<MixedSample<Long>> loader = DataLoader.builder(mix).batchSize(8).numWorkers(workers).seed(3)
                .build()) {
            for (Batch b : loader) {
                try (b) {
                    long[] v = b.tensor().toLongArray();
                    for (long x : v) {
                        counts[x > 0 ? 0 : 1]++;
                    }
                    out.add(Arrays.toString(v));
                }
            }
            assertThat(loader.pool().stats().lentBytes()).isZero();
        }
        return out;
    }

    @Test
    void eachSampleIsFilledByItsOwnSourceOnTheFillPath() {
        FillableMixedStreamingDataset<Long> mix = MixedStreamingDataset.fillable(
                List.of(new Signed(300, 1, ONE_LONG), new Signed(100, -1, ONE_LONG)), 3, 1)
                .until(MixedStreamingDataset.Until.ALL_END);
        long[] counts = new long[2];
        List<String> batches = run(mix, 2, counts);
        assertThat(counts).containsExactly(300, 100);
        assertThat(batches).isNotEmpty();
        assertThat(mix.layout()).isEqualTo(ONE_LONG);
    }

    @Test
    void itResumesWhereItStood() {
        FillableMixedStreamingDataset<Long> mix = MixedStreamingDataset.fillable(
                List.of(new Signed(200, 1, ONE_LONG), new Signed(200, -1, ONE_LONG)), 1, 1);
        List<String> expected = run(mix, 2, new long[2]);
        List<String> seen = new ArrayList<>();
        LoaderState state;
        try (DataLoader<MixedSample<Long>> loader = DataLoader.builder(mix).batchSize(8).numWorkers(2).seed(3).build()) {
            state = ResumeRuns.stopAfter(loader, 1, 7, b -> Arrays.toString(b.tensor().toLongArray()), seen);
        }
        try (DataLoader<MixedSample<Long>> loader = DataLoader.builder(mix).batchSize(8).numWorkers(2).seed(3).build()) {
            ResumeRuns.resume(loader, state, 1, b -> Arrays.toString(b.tensor().toLongArray()), seen, () -> { });
        }
        assertThat(seen).isEqualTo(expected);
    }

    @Test
    void sourcesThatFillDifferentLayoutsAreRefusedByName() {
        SampleLayout other = SampleLayout.single(new SampleLayout.Field("v", DType.I32, Shape.scalar()));
        assertThatThrownBy(() -> MixedStreamingDataset.fillable(
                List.of(new Signed(1, 1, ONE_LONG), new Signed(1, -1, other)), 1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("source 1")
                .hasMessageContaining("one layout");
    }
}
