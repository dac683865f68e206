package dev.stoker.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderState;
import dev.stoker.loader.ResumeRuns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A loader over a JSONL stream, stopped at any batch and restored, delivers the batches of an uninterrupted run. */
class JsonlStreamResumeTest {
    private static final int EPOCHS = 2;

    @TempDir
    Path dir;

    private DataLoader<String> loader(JsonlStream<String> ds, int workers) {
        return DataLoader.builder(ds).batchSize(5).numWorkers(workers).seed(3)
                .collate((samples, memory) -> List.copyOf(samples)).build();
    }

    private static String describe(Batch b) {
        return b.epoch() + "/" + b.index() + "=" + b.data();
    }

    @Test
    void aResumedEpochGoesOnAsIfUninterrupted() throws Exception {
        List<Path> files = new ArrayList<>();
        int line = 0;
        for (int f = 0; f < 4; f++) {
            StringBuilder sb = new StringBuilder();
            for (int k = 0; k < 9 + 4 * f; k++) {
                sb.append("{\"text\": \"t").append(line++).append("\"}\n");
            }
            files.add(Files.writeString(dir.resolve("p" + f + ".jsonl"), sb));
        }
        Random random = new Random(7);
        for (int trial = 0; trial < 16; trial++) {
            int workers = random.nextInt(6); // 4 files: from 5 workers on, each worker strides over every file
            JsonlStream<String> ds = JsonlStream.field(files.subList(0, 1 + random.nextInt(4)), "text")
                    .withShuffledFiles(random.nextBoolean());
            List<String> expected;
            try (DataLoader<String> loader = loader(ds, workers)) {
                expected = ResumeRuns.uninterrupted(loader, EPOCHS, JsonlStreamResumeTest::describe);
            }
            int stop = random.nextInt(expected.size() + 1);
            List<String> seen = new ArrayList<>();
            LoaderState state;
            try (DataLoader<String> loader = loader(ds, workers)) {
                state = ResumeRuns.stopAfter(loader, EPOCHS, stop, JsonlStreamResumeTest::describe, seen);
            }
            try (DataLoader<String> loader = loader(ds, workers)) {
                ResumeRuns.resume(loader, state, EPOCHS, JsonlStreamResumeTest::describe, seen, () -> {});
            }
            assertThat(seen).as("trial %d, %d workers, stop after %d", trial, workers, stop).containsExactlyElementsOf(expected);
        }
    }
}
