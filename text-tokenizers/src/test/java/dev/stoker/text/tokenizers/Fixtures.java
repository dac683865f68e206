package dev.stoker.text.tokenizers;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The tokenizers and ids that src/test/python/make_tokenizers.py (and make_sp_word_char.py: SentencePiece word,
 * char and BPE without byte fallback) wrote with the Python libraries.
 */
final class Fixtures {
    private Fixtures() {
    }

    static Path file(String name) {
        try {
            return Path.of(Fixtures.class.getResource("/tokenizers/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The corpus, one text a line (the lines keep their tabs and spaces). */
    static List<String> corpus() throws IOException {
        String all = Files.readString(file("corpus.txt"), StandardCharsets.UTF_8);
        return List.of(all.substring(0, all.length() - 1).split("\n", -1));
    }

    /** The ids the Python library gave for each corpus line. */
    static List<int[]> ids(String name) throws IOException {
        return Files.readAllLines(file(name + ".ids")).stream()
                .map(l -> l.isEmpty() ? new int[0] : Arrays.stream(l.split(" ")).mapToInt(Integer::parseInt).toArray())
                .toList();
    }
}
