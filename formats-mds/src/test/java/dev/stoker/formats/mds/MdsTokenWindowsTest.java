package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.collate.DefaultCollate;
import dev.stoker.formats.tokens.TokenWindow;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderBuilder;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Token windows from an MDS token column: input and target shifted by one, on the fill and collate paths. */
class MdsTokenWindowsTest {
    private static final int LEN = 9; // 8 tokens of input and 8 of target per window

    @TempDir
    Path dir;

    /** 50 windows of random uint16 token ids, sample i's token k in {@code tokens[i][k]}. */
    private static long[][] write(Path out) {
        Random random = new Random(5);
        long[][] tokens = new long[50][LEN];
        try (Arena arena = Arena.ofConfined();
             MdsWriter w = MdsWriter.builder(out).column("tokens", "ndarray:uint16:" + LEN)
                     .column("id", "int").sizeLimit(400).compression("zstd").open()) {
            for (int i = 0; i < tokens.length; i++) {
                Tensor t = Tensor.allocate(arena, DType.U16, Shape.of(LEN));
                for (int k = 0; k < LEN; k++) {
                    tokens[i][k] = random.nextInt(1 << 16); // the top bit too: widened unsigned
                    t.setLong(k, tokens[i][k]);
                }
                w.write(Map.of("tokens", t, "id", (long) i));
            }
            w.commit();
        }
        return tokens;
    }

    @Test
    void windowsShiftTheTokensByOneOnBothPaths() {
        Path out = dir.resolve("u16");
        long[][] tokens = write(out);
        for (int run = 0; run < 4; run++) {
            try (MdsDataset mds = MdsDataset.open(out)) {
                MdsTokenWindows windows = mds.tokenWindows("tokens");
                assertThat(windows.seqLen()).isEqualTo(LEN - 1);
                LoaderBuilder<TokenWindow> b = DataLoader.builder(windows).batchSize(8).shuffle(true).seed(run)
                        .numWorkers(run % 2 == 0 ? 0 : 2);
                if (run >= 2) {
                    b.collate(DefaultCollate.instance());
                }
                long seen = 0;
                try (DataLoader<TokenWindow> loader = b.build()) {
                    for (Batch batch : loader) {
                        try (batch) {
                            for (int j = 0; j < batch.indices().length; j++) {
                                long[] want = tokens[(int) batch.indices()[j]];
                                long[] input = batch.tensor("input").select(j).toLongArray();
                                long[] target = batch.tensor("target").select(j).toLongArray();
                                for (int k = 0; k < LEN - 1; k++) {
                                    assertThat(input[k]).isEqualTo(want[k]);
                                    assertThat(target[k]).isEqualTo(want[k + 1]);
                                }
                            }
                            seen += batch.indices().length;
                        }
                    }
                    assertThat(loader.pool().lentBytes()).isZero();
                }
                assertThat(seen).isEqualTo(50);
            }
        }
    }

    @Test
    void uint32TokensFromStreamingsWriterAreWidenedWhole() {
        // scalars_zstd (written by Streaming's MDSWriter) has arr_u32: ndarray:uint32:4, values up to 2^32 - 1
        try (MdsDataset mds = MdsDataset.open(MdsFixtures.copy("scalars_zstd", dir.resolve("u32")))) {
            MdsTokenWindows windows = mds.tokenWindows("arr_u32");
            assertThat(windows.seqLen()).isEqualTo(3);
            boolean sawHighBit = false;
            for (long i = 0; i < mds.size(); i++) {
                long[] all = mds.get(i).tensor("arr_u32").toLongArray(); // widened to int64 by the reader
                TokenWindow w = windows.get(i);
                for (int k = 0; k < 3; k++) {
                    assertThat(w.input().getLong(k)).isEqualTo(all[k]);
                    assertThat(w.target().getLong(k)).isEqualTo(all[k + 1]);
                    sawHighBit |= all[k] >= 1L << 31;
                }
            }
            assertThat(sawHighBit).as("the fixture tests values past 2^31").isTrue();
        }
    }

    @Test
    void aColumnThatIsNotATokenArrayIsRefusedNamingIt() {
        Path out = dir.resolve("u16");
        write(out);
        try (MdsDataset mds = MdsDataset.open(out)) {
            assertThatThrownBy(() -> mds.tokenWindows("id")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("column 'id' is int").hasMessageContaining("ndarray:uint16:N");
            assertThatThrownBy(() -> mds.tokenWindows("nope")).hasMessageContaining("no column 'nope'");
        }
    }
}
