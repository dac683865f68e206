package dev.stoker.formats.npy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Write with Stoker, read back with Stoker (and with NumPy, where python3 and numpy are installed). */
class NpyRoundTripTest {
    private static final DType[] WRITABLE = {DType.BOOL, DType.U8, DType.I8, DType.I16, DType.U16, DType.I32,
        DType.I64, DType.F16, DType.F32, DType.F64};

    @TempDir
    Path dir;

    record Case(Path path, DType dtype, Shape shape, byte[] bytes) {}

    private List<Case> writeRandom(int count, long seed, int maxDim) throws IOException {
        Random rnd = new Random(seed);
        List<Case> cases = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            for (int c = 0; c < count; c++) {
                DType dtype = WRITABLE[rnd.nextInt(WRITABLE.length)];
                long[] dims = new long[rnd.nextInt(5)];
                for (int i = 0; i < dims.length; i++) {
                    dims[i] = rnd.nextInt(maxDim + 1);
                }
                Shape shape = Shape.of(dims);
                Tensor t = Tensor.allocate(arena, dtype, shape);
                for (long i = 0; i < t.elements(); i++) {
                    if (dtype.isFloatingPoint()) {
                        t.setDouble(i, rnd.nextGaussian() * 1000);
                    } else {
                        t.setLong(i, rnd.nextLong());
                    }
                }
                Path p = dir.resolve("case" + c + ".npy");
                NpyWriter.write(p, t);
                cases.add(new Case(p, dtype, shape, t.segment().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)));
            }
        }
        return cases;
    }

    @Test
    void whatStokerWritesStokerReadsBack() throws IOException {
        for (Case c : writeRandom(300, 11, 6)) {
            try (NpyFile npy = NpyFile.open(c.path())) {
                assertThat(npy.header().major()).isEqualTo(1);
                assertThat(npy.header().dataOffset() % 64).as("data aligned to 64 bytes").isZero();
                Tensor t = npy.tensor();
                assertThat(t.dtype()).isEqualTo(c.dtype());
                assertThat(t.shape()).isEqualTo(c.shape());
                assertThat(t.segment().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)).isEqualTo(c.bytes());
            }
        }
    }

    @Test
    void headersArePaddedAndShapesWrittenAsPythonWritesThem() throws IOException {
        long[] dims = new long[64];
        java.util.Arrays.fill(dims, 1);
        byte[] header = NpyWriter.header(DType.F32, Shape.of(dims));
        assertThat(header.length % 64).isZero();
        assertThat(header[6]).isEqualTo((byte) 1); // 64 dimensions still fit a 65,535-byte header
        assertThat(NpyWriter.shapeLiteral(Shape.of(3))).isEqualTo("(3,)");
        assertThat(NpyWriter.shapeLiteral(Shape.scalar())).isEqualTo("()");
        assertThat(NpyWriter.shapeLiteral(Shape.of(2, 3))).isEqualTo("(2, 3)");
    }

    @Test
    void bf16HasNoNumpyType() {
        try (Arena arena = Arena.ofConfined()) {
            Tensor t = Tensor.allocate(arena, DType.BF16, Shape.of(2));
            assertThatThrownBy(() -> NpyWriter.write(dir.resolve("x.npy"), t)).hasMessageContaining("bfloat16");
            assertThat(dir.resolve("x.npy")).doesNotExist();
        }
    }

    @Test
    void closedFilesRefuseReadsInsteadOfCrashing() throws IOException {
        Case c = writeRandom(1, 3, 4).getFirst();
        NpyFile npy = NpyFile.open(c.path());
        Tensor t = npy.tensor();
        npy.close();
        npy.close(); // idempotent
        if (t.elements() > 0) {
            assertThatThrownBy(() -> t.getDouble(0)).isInstanceOf(IllegalStateException.class);
        }
    }

    /** NumPy reads what Stoker wrote: the same dtype, shape and bytes. Skipped without python3 and numpy. */
    @Test
    void numpyReadsWhatStokerWrote() throws Exception {
        assumeTrue(numpyAvailable(), "python3 with numpy is not installed");
        List<Case> cases = writeRandom(40, 12, 4);
        String script = """
                import sys, numpy as np
                for p in sys.argv[1:]:
                    a = np.load(p)
                    print(a.dtype.str, ",".join(map(str, a.shape)), a.astype(a.dtype.newbyteorder("<")).tobytes().hex() or "-")
                """;
        List<String> cmd = new ArrayList<>(List.of("python3", "-c", script));
        cases.forEach(c -> cmd.add(c.path().toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        String[] lines = out.strip().split("\n");
        assertThat(lines).hasSize(cases.size());
        for (int i = 0; i < lines.length; i++) {
            Case c = cases.get(i);
            String[] f = lines[i].split(" ");
            assertThat(f[0]).isIn(NpyDescr.little(c.dtype()), NpyDescr.little(c.dtype()).replace('<', '|'));
            String shape = String.join(",", java.util.Arrays.stream(c.shape().toArray()).mapToObj(Long::toString).toList());
            assertThat(f.length > 1 ? f[1] : "").isEqualTo(shape);
            String hex = f.length > 2 ? f[2] : "-";
            assertThat(hex).isEqualTo(c.bytes().length == 0 ? "-" : HexFormat.of().formatHex(c.bytes()));
        }
    }

    static boolean numpyAvailable() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import numpy").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    void writesFromAnySegment() throws IOException {
        long[] values = {1, -2, 3};
        Tensor t = new Tensor(MemorySegment.ofArray(values), DType.I64, Shape.of(3));
        NpyWriter.write(dir.resolve("heap.npy"), t);
        try (NpyFile npy = NpyFile.open(dir.resolve("heap.npy"))) {
            assertThat(npy.tensor().toLongArray()).containsExactly(values);
        }
        assertThat(Files.list(dir)).singleElement().isEqualTo(dir.resolve("heap.npy")); // no temporary left
    }
}
