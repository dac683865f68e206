package dev.stoker.examples.resume;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stoker.loader.LoaderState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * What a training job saves at a checkpoint, taken at the same step: the model (here one number
 * standing in for its weights) and where the loader stands. Saving one without the other would
 * resume the model on other batches than it would have seen.
 *
 * @param step   the training steps done
 * @param model  the stand-in for the model's weights after them
 * @param loader {@code loader.state()} after them: a few numbers, the samples themselves are not in it
 */
record Checkpoint(long step, long model, LoaderState loader) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Writes the checkpoint to a temporary file, then moves it over the last one: a crash while writing leaves that one whole. */
    void write(Path file) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, json());
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    String json() throws IOException {
        return JSON.writeValueAsString(this);
    }

    static Checkpoint read(Path file) throws IOException {
        return JSON.readValue(file.toFile(), Checkpoint.class);
    }
}
