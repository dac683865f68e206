package dev.stoker.formats.npy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reads the files that NumPy wrote ({@code src/test/python/make_npy_fixtures.py}) and compares
 * them with the values the script listed beside them; and checks that each file the script made
 * to be refused is refused with the reason it names.
 */
class NpyFixturesTest {

    static Path folder() {
        try {
            return Path.of(NpyFixturesTest.class.getResource("/npy/expected.txt").toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
    }

    static Stream<Arguments> valid() throws IOException {
        return Files.readAllLines(folder().resolve("expected.txt")).stream()
                .filter(l -> !l.isBlank())
                .map(l -> Arguments.of(l.split(" ")[0], l));
    }

    static Stream<Arguments> refused() throws IOException {
        return Files.readAllLines(folder().resolve("corrupt.txt")).stream()
                .filter(l -> !l.isBlank())
                .map(l -> Arguments.of(l.substring(0, l.indexOf(' ')), l.substring(l.indexOf(' ') + 1)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valid")
    void readsWhatNumpyWrote(String name, String line) throws IOException {
        String[] parts = line.split(" ");
        DType dtype = DType.parse(parts[1]);
        Shape shape = parts[2].equals("scalar") ? Shape.scalar()
                : Shape.of(Arrays.stream(parts[2].split("x")).mapToLong(Long::parseLong).toArray());
        List<String> values = Arrays.asList(parts).subList(3, parts.length);
        try (NpyFile npy = NpyFile.open(folder().resolve(name + ".npy"))) {
            Tensor t = npy.tensor();
            assertThat(t.dtype()).isEqualTo(dtype);
            assertThat(t.shape()).isEqualTo(shape);
            assertThat(t.elements()).isEqualTo(values.size());
            for (int i = 0; i < values.size(); i++) {
                assertValue(t, i, values.get(i), name);
            }
            if (shape.rank() == 0) {
                assertThatThrownBy(npy::rows).isInstanceOf(IllegalStateException.class).hasMessageContaining("0-d");
            } else {
                NpyDataset rows = npy.rows();
                assertThat(rows.size()).isEqualTo(shape.dim(0));
                long perRow = shape.dropFirst().elements();
                for (long r = 0; r < rows.size(); r++) {
                    Tensor row = rows.get(r);
                    assertThat(row.shape()).isEqualTo(shape.dropFirst());
                    for (long k = 0; k < perRow; k++) {
                        assertValue(row, k, values.get((int) (r * perRow + k)), name);
                    }
                }
            }
            // little-endian C-order data is a view of the map: nothing copied; the rest is copied once
            boolean copied = name.startsWith("be_") || name.startsWith("fortran_be_")
                    || name.startsWith("fortran_") && npy.header().columnMajor();
            if (t.byteSize() > 0) {
                assertThat(t.segment().isMapped()).as(name).isEqualTo(!copied);
            }
        }
    }

    private static void assertValue(Tensor t, long i, String expected, String name) {
        if (t.dtype().isFloatingPoint()) {
            double want = switch (expected) {
                case "nan" -> Double.NaN;
                case "inf" -> Double.POSITIVE_INFINITY;
                case "-inf" -> Double.NEGATIVE_INFINITY;
                default -> Double.parseDouble(expected);
            };
            assertThat(Double.compare(t.getDouble(i), want)).as("%s element %d: %s vs %s", name, i, t.getDouble(i), want)
                    .isZero();
        } else {
            assertThat(t.getLong(i)).as("%s element %d", name, i).isEqualTo(Long.parseLong(expected));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void refusesWithAClearReason(String name, String reason) {
        Path file = folder().resolve(name + ".npy");
        assertThatThrownBy(() -> NpyFile.open(file).close())
                .isInstanceOf(NpyFormatException.class)
                .hasMessageStartingWith(file.toString() + ": ")
                .hasMessageContaining(reason);
    }
}
