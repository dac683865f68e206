package dev.stoker.formats.mds;

import dev.stoker.contract.FillableDatasetContract;
import dev.stoker.contract.MapDatasetContract;
import dev.stoker.formats.tokens.TokenWindow;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/** Every dataset of the MDS module runs the contracts that apply to it, on sets Streaming's writer made. */
class MdsContractsTest {
    private static final String[] COLUMNS = {"arr_fixed", "n", "u32", "f16", "i8", "arr_u32"};

    @TempDir
    Path dir;

    static Object tensors(Map<String, Tensor> s) {
        Map<String, String> out = new TreeMap<>();
        s.forEach((k, t) -> out.put(k, t.dtype() + " " + t.shape() + " " + Arrays.toString(t.toDoubleArray())));
        return out.toString();
    }

    /** 20 windows of 9 uint16 tokens in zstd shards of this writer's. */
    static Path tokenSet(Path out) {
        Random random = new Random(5);
        try (Arena arena = Arena.ofConfined();
             MdsWriter w = MdsWriter.builder(out).column("tokens", "ndarray:uint16:9").column("id", "int")
                     .sizeLimit(200).compression("zstd").open()) {
            for (int i = 0; i < 20; i++) {
                Tensor t = Tensor.allocate(arena, DType.U16, Shape.of(9));
                for (int k = 0; k < 9; k++) {
                    t.setLong(k, random.nextInt(1 << 16));
                }
                w.write(Map.of("tokens", t, "id", (long) i));
            }
            w.commit();
        }
        return out;
    }

    @Nested
    class Samples extends MapDatasetContract<MdsSample> {
        @Override
        protected Opened<MdsSample> open() {
            MdsDataset ds = MdsDataset.open(MdsFixtures.copy("scalars_zstd", dir));
            return new Opened<>(ds, ds);
        }

        @Override
        protected Object content(MdsSample s) {
            Map<String, String> out = new TreeMap<>();
            for (String c : s.columns()) {
                out.put(c, Arrays.toString(s.bytes(c)));
            }
            return s.index() + " " + out;
        }
    }

    @Nested
    class Tensors extends MapDatasetContract<Map<String, Tensor>> {
        @Override
        protected Opened<Map<String, Tensor>> open() {
            MdsDataset ds = MdsDataset.open(MdsFixtures.copy("scalars", dir));
            return new Opened<>(ds.tensors(COLUMNS), ds);
        }

        @Override
        protected Object content(Map<String, Tensor> s) {
            return tensors(s);
        }
    }

    @Nested
    class TensorsFill extends FillableDatasetContract<Map<String, Tensor>> {
        @Override
        protected Opened<Map<String, Tensor>> open() {
            MdsDataset ds = MdsDataset.open(MdsFixtures.copy("scalars", dir));
            return new Opened<>(ds.tensors(COLUMNS), ds);
        }
    }

    @Nested
    class TokenWindows extends MapDatasetContract<TokenWindow> {
        @Override
        protected Opened<TokenWindow> open() {
            MdsDataset ds = MdsDataset.open(tokenSet(dir.resolve("t")));
            return new Opened<>(ds.tokenWindows("tokens"), ds);
        }

        @Override
        protected Object content(TokenWindow w) {
            return List.of(Arrays.toString(w.input().toLongArray()), Arrays.toString(w.target().toLongArray()));
        }
    }

    @Nested
    class TokenWindowsFill extends FillableDatasetContract<TokenWindow> {
        @Override
        protected Opened<TokenWindow> open() {
            MdsDataset ds = MdsDataset.open(tokenSet(dir.resolve("t")));
            return new Opened<>(ds.tokenWindows("tokens"), ds);
        }
    }
}
