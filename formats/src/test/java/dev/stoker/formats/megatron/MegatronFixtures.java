package dev.stoker.formats.megatron;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The fixtures Megatron-LM's own writer made (src/test/python/make_megatron_fixtures.py), and their listings. */
final class MegatronFixtures {
    static final List<String> NAMES = List.of("uint8", "int8", "int16", "uint16", "int32", "int64",
            "multimodal_int32", "empty_uint16");

    private MegatronFixtures() {}

    /** What Megatron was given: dtype, document indices, modes (null without), sequences. */
    record Listing(MegatronDType dtype, long[] documentIndices, int[] modes, List<long[]> sequences) {}

    /** The prefix of fixture {@code name} (its .bin and .idx). */
    static Path prefix(String name) {
        try {
            Path idx = Path.of(MegatronFixtures.class.getResource("/megatron/" + name + ".idx").toURI());
            return idx.resolveSibling(name);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Listing listing(String name) throws IOException {
        Path txt = prefix(name).resolveSibling(name + ".txt");
        List<String> lines = Files.readAllLines(txt, StandardCharsets.US_ASCII);
        MegatronDType dtype = MegatronDType.valueOf(lines.get(0).toUpperCase(java.util.Locale.ROOT));
        long[] docs = numbers(lines.get(1));
        int[] modes = lines.get(2).equals("-") ? null : Arrays.stream(numbers(lines.get(2))).mapToInt(m -> (int) m).toArray();
        List<long[]> sequences = new ArrayList<>();
        for (String line : lines.subList(3, lines.size())) {
            sequences.add(numbers(line));
        }
        return new Listing(dtype, docs, modes, sequences);
    }

    private static long[] numbers(String line) {
        return line.isBlank() ? new long[0] : Arrays.stream(line.trim().split(" ")).mapToLong(Long::parseLong).toArray();
    }

    /** Copies fixture {@code name}'s .bin and .idx into {@code dir}; returns the new prefix. */
    static Path copy(String name, Path dir) throws IOException {
        Path from = prefix(name);
        Path to = dir.resolve(name);
        Files.copy(MegatronDataset.binPath(from), MegatronDataset.binPath(to));
        Files.copy(MegatronDataset.idxPath(from), MegatronDataset.idxPath(to));
        return to;
    }
}
