package dev.stoker.text.tokenizers;

import dev.stoker.data.DataFiles;
import dev.stoker.text.Tokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opens a tokenizer file by its kind: a Hugging Face {@code tokenizer.json} (or a folder holding
 * one) as {@link HfTokenizer}, a SentencePiece {@code .model} as {@link SentencePieceTokenizer}.
 *
 * <pre>{@code
 * try (Tokenizer tok = Tokenizers.open(Path.of("models/llama/tokenizer.model"))) { ... }
 * }</pre>
 */
public final class Tokenizers {
    private Tokenizers() {
    }

    /**
     * The tokenizer in {@code file}: {@code .json} or a folder is Hugging Face's, {@code .model}
     * SentencePiece's; any other name is judged by its first byte (an opening brace is JSON).
     *
     * @throws IOException when it cannot be read or is neither kind, naming the file
     */
    public static Tokenizer open(Path file) throws IOException {
        String name = file.getFileName() == null ? "" : file.getFileName().toString();
        if (Files.isDirectory(file) || name.endsWith(".json")) {
            return HfTokenizer.open(file);
        }
        if (name.endsWith(".model")) {
            return SentencePieceTokenizer.open(file);
        }
        try (var in = DataFiles.newInputStream(file)) { // a FIFO is refused, not opened
            int first = in.read();
            return first == '{' ? HfTokenizer.open(file) : SentencePieceTokenizer.open(file);
        }
    }
}
