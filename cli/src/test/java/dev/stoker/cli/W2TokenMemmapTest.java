package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** W2, shrunk to a small token file: every configuration delivers the same windows of the file. */
class W2TokenMemmapTest {
    @TempDir
    Path data;

    @Test
    void everyPathDeliversTheSameWindowsOfTheFile() throws Exception {
        int n = 10_000;
        short[] tokens = new short[n];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(2L * n);
            W2TokenMemmap.writeTokens(seg, n, 42);
            for (int i = 0; i < n; i++) {
                tokens[i] = seg.getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), i);
                assertThat(Short.toUnsignedInt(tokens[i])).isLessThan(W2TokenMemmap.VOCABULARY);
            }
            Files.write(data.resolve(W2TokenMemmap.FILE), seg.toArray(ValueLayout.JAVA_BYTE));
        }
        try (W2TokenMemmap w2 = new W2TokenMemmap(150)) {
            List<String> reference = null;
            for (Configuration c : w2.configurations()) {
                List<String> batches = new ArrayList<>();
                try (DataLoader<?> loader = w2.newLoader(c, 0, data)) {
                    for (Batch b : loader) {
                        try (b) {
                            Tensor input = b.tensor("input");
                            Tensor target = b.tensor("target");
                            assertThat(input.dtype()).isEqualTo(DType.I64);
                            assertThat(input.shape()).isEqualTo(Shape.of(b.indices().length, W2TokenMemmap.SEQ_LEN));
                            assertThat(target.shape()).isEqualTo(input.shape());
                            // the target is the input shifted by one, within each row
                            assertThat(target.getLong(0)).isEqualTo(input.getLong(1));
                            batches.add(Arrays.toString(b.indices()) + Arrays.hashCode(input.toLongArray())
                                    + Arrays.hashCode(target.toLongArray()));
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
    void generatedTokensAreDeterministicAndInRange() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(2 * 1001);
            MemorySegment b = arena.allocate(2 * 1001);
            W2TokenMemmap.writeTokens(a, 1001, 7);
            W2TokenMemmap.writeTokens(b, 1001, 7);
            assertThat(a.mismatch(b)).isEqualTo(-1);
            int max = 0;
            for (int i = 0; i < 1001; i++) {
                max = Math.max(max, Short.toUnsignedInt(a.getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i)));
            }
            assertThat(max).isLessThan(W2TokenMemmap.VOCABULARY).isGreaterThan(40_000);
        }
    }
}
