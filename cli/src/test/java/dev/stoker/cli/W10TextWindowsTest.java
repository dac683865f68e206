package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.text.Tokenizer;
import dev.stoker.text.tokenizers.Tokenizers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * W10 over the tokenizer tests' corpus in 4 JSONL files and their byte-level BPE: every window of
 * every configuration is a window of some worker's concatenation of its files' documents, as
 * the tokenizer encodes them, each ended by {@code <|endoftext|>}.
 */
class W10TextWindowsTest {
    private static final Path TOKENIZERS = Path.of("..").toAbsolutePath().normalize()
            .resolve("text-tokenizers/src/test/resources/tokenizers");

    @TempDir
    Path data;

    @Test
    void everyWindowIsCutFromAWorkersDocumentsInOrder() throws Exception {
        String all = Files.readString(TOKENIZERS.resolve("corpus.txt"));
        List<String> texts = List.of(all.substring(0, all.length() - 1).split("\n", -1));
        Path dir = Files.createDirectories(data.resolve(W10TextWindows.FOLDER));
        Files.copy(TOKENIZERS.resolve("bpe.json"), dir.resolve("tokenizer.json"));
        for (int f = 0; f < 4; f++) {
            List<String> lines = new ArrayList<>();
            for (int i = f; i < texts.size(); i += 4) {
                lines.add("{\"text\": \"" + texts.get(i).replace("\\", "\\\\").replace("\"", "\\\"").replace("\t", "\\t")
                        + "\"}");
            }
            Files.write(dir.resolve("train-0000" + f + ".jsonl"), lines, StandardCharsets.UTF_8);
        }
        // each worker's stream: its files' documents, each then <|endoftext|> (id 0)
        List<long[]> streams = new ArrayList<>();
        try (Tokenizer tok = Tokenizers.open(dir.resolve("tokenizer.json"))) {
            for (int workers : List.of(1, 2)) {
                for (int w = 0; w < workers; w++) {
                    List<Long> ids = new ArrayList<>();
                    for (int f = w; f < 4; f += workers) {
                        for (int i = f; i < texts.size(); i += 4) {
                            for (int id : tok.encode(texts.get(i))) {
                                ids.add((long) id);
                            }
                            ids.add(0L);
                        }
                    }
                    streams.add(ids.stream().mapToLong(Long::longValue).toArray());
                }
            }
        }
        Set<String> windowsOfOne = new HashSet<>();
        long[] one = streams.getFirst();
        for (int s = 0; s + W10TextWindows.SEQ + 1 <= one.length; s += W10TextWindows.SEQ) {
            windowsOfOne.add(key(one, s));
        }
        assertThat(windowsOfOne).isNotEmpty();
        try (W10TextWindows w10 = new W10TextWindows(windowsOfOne.size())) {
            for (Configuration c : w10.configurations()) {
                int seen = 0;
                try (DataLoader<?> loader = w10.newLoader(c, 0, data)) {
                    for (Batch b : loader) {
                        try (b) {
                            Tensor x = b.tensor("input");
                            Tensor y = b.tensor("target");
                            long n = x.shape().dim(0);
                            assertThat(y.shape()).isEqualTo(Shape.of(n, W10TextWindows.SEQ));
                            long[] xs = x.toLongArray();
                            long[] ys = y.toLongArray();
                            for (int j = 0; j < n; j++) {
                                long[] window = new long[W10TextWindows.SEQ + 1];
                                System.arraycopy(xs, j * W10TextWindows.SEQ, window, 0, W10TextWindows.SEQ);
                                window[W10TextWindows.SEQ] = ys[(j + 1) * W10TextWindows.SEQ - 1];
                                assertThat(ys[j * W10TextWindows.SEQ]).isEqualTo(window[1]);
                                assertThat(c.numWorkers() > 1 || windowsOfOne.contains(key(window, 0)))
                                        .as("%s: window %d is one of the single stream's", c, seen).isTrue();
                                seen++;
                            }
                        }
                    }
                }
                if (c.numWorkers() <= 1) {
                    assertThat(seen).as(c.name()).isEqualTo(windowsOfOne.size());
                } else {
                    long expected = 0;
                    for (long[] s : streams.subList(1, 3)) {
                        expected += (s.length - 1) / W10TextWindows.SEQ;
                    }
                    assertThat((long) seen).as(c.name()).isEqualTo(expected);
                }
            }
        }
    }

    private static String key(long[] tokens, int from) {
        StringBuilder sb = new StringBuilder();
        for (int k = from; k < from + W10TextWindows.SEQ + 1; k++) {
            sb.append(tokens[k]).append(',');
        }
        return sb.toString();
    }
}
