package dev.stoker.formats.jsonl;

import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** The fixtures Python's json module wrote (src/test/python/make_jsonl_fixtures.py). */
final class JsonlFiles {
    private JsonlFiles() {}

    static Path resource(String name) {
        try {
            return Path.of(JsonlFiles.class.getResource("/jsonl/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Copies fixture {@code name} into {@code dir} (so that its sidecar is written there). */
    static Path copy(String name, Path dir) throws Exception {
        Path to = dir.resolve(name);
        Files.copy(resource(name), to);
        return to;
    }

    /** The "text" of each line of python.jsonl, as json.loads read it. */
    static List<String> expectedTexts() throws Exception {
        List<String> out = new ArrayList<>();
        for (String hex : Files.readAllLines(resource("python.expected"), StandardCharsets.US_ASCII)) {
            byte[] utf16 = hex.equals("-") ? new byte[0] : HexFormat.of().parseHex(hex);
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < utf16.length; i += 2) {
                s.append((char) ((utf16[i] & 0xFF) << 8 | (utf16[i + 1] & 0xFF)));
            }
            out.add(s.toString());
        }
        return out;
    }
}
