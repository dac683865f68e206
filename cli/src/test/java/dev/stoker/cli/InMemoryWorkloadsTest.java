package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** W4 and W6, shrunk: the batches they deliver, and that every configuration gives the same ones. */
class InMemoryWorkloadsTest {

    @Test
    void w6DeliversImagesAndLabelsAlikeOnEveryPath() {
        try (W6InMemoryTensors w6 = new W6InMemoryTensors(150)) {
            List<String> reference = null;
            for (Configuration c : w6.configurations().stream().filter(c -> c.numWorkers() == 0).toList()) {
                List<String> batches = new ArrayList<>();
                try (DataLoader<?> loader = w6.newLoader(c, 3, null)) {
                    for (Batch b : loader) {
                        try (b) {
                            Tensor images = b.tensor(0);
                            Tensor labels = b.tensor(1);
                            assertThat(images.dtype()).isEqualTo(DType.F32);
                            assertThat(images.shape().dropFirst()).isEqualTo(Shape.of(3, 224, 224));
                            assertThat(labels.dtype()).isEqualTo(DType.I64);
                            assertThat(labels.shape()).isEqualTo(Shape.of(images.shape().dim(0)));
                            for (long v : labels.toLongArray()) {
                                assertThat(v).isBetween(0L, 999L);
                            }
                            float first = images.getFloat(0);
                            assertThat(first).isGreaterThanOrEqualTo(0f).isLessThan(1f);
                            batches.add(Arrays.toString(b.indices()) + Arrays.hashCode(
                                    images.segment().toArray(ValueLayout.JAVA_BYTE)) + labels);
                        }
                    }
                    assertThat(loader.pool().lentBytes()).isZero();
                }
                assertThat(batches).as(c.name()).hasSize(3); // 64 + 64 + 22
                if (reference == null) {
                    reference = batches;
                } else {
                    assertThat(batches).as(c.name()).isEqualTo(reference);
                }
            }
        }
    }

    @Test
    void w4PadsEachBatchToItsLongestSequence() {
        W4VarlenCollate w4 = new W4VarlenCollate(200);
        try (DataLoader<?> loader = w4.newLoader(Configuration.of(0, false, false), 0, null)) {
            long samples = 0;
            for (Batch b : loader) {
                try (b) {
                    Tensor padded = b.tensor(0);
                    Tensor labels = b.tensor(1);
                    Tensor lengths = b.tensor(2);
                    long n = padded.shape().dim(0);
                    long[] lens = lengths.toLongArray();
                    long max = Arrays.stream(lens).max().orElseThrow();
                    assertThat(padded.shape()).isEqualTo(Shape.of(n, max));
                    assertThat(padded.dtype()).isEqualTo(DType.I64);
                    assertThat(Arrays.stream(labels.toLongArray()).allMatch(l -> l == 0 || l == 1)).isTrue();
                    assertThat(Arrays.stream(lens).allMatch(l -> l >= 16 && l <= 512)).isTrue();
                    long[] flat = padded.toLongArray();
                    for (int i = 0; i < n; i++) {
                        for (long t = 0; t < max; t++) {
                            long v = flat[(int) (i * max + t)];
                            if (t < lens[i]) {
                                assertThat(v).isBetween(0L, 50_256L);
                            } else {
                                assertThat(v).isZero();
                            }
                        }
                    }
                    samples += n;
                }
            }
            assertThat(samples).isEqualTo(200);
            assertThat(loader.pool().lentBytes()).isZero();
        }
    }

    @Test
    void benchRunsW4AndW6() {
        for (String workload : new String[] {"W4", "W6"}) {
            BenchCommandTest.Run r = BenchCommandTest.run("bench", "--workload", workload, "--samples", "100",
                    "--quick");
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out()).contains(workload + " ", "nw=0");
        }
    }
}
