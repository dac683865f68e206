package dev.stoker.formats.tokens;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.testing.Damage;
import dev.stoker.testing.FormatErrors;
import dev.stoker.testing.FuzzSubject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Flat token files under the corruption fuzz (a base named {@code *.u16} or {@code *.u32} holds
 * tokens of that width): a damaged copy, opened and cut into windows (tiling and at random
 * offsets), every window read by {@code get} and by the loader's fill path. A file of no whole
 * number of tokens is refused at open; one too short for a window is refused naming the file; a
 * token's value is not checked (the file says nothing of the vocabulary).
 */
public final class TokenFileFuzzSubject implements FuzzSubject {
    private static final int SEQ_LEN = 16;

    @Override
    public Case damage(Path fixtures, String base, Path work, long seed) throws IOException {
        Path file = work.resolve(base);
        Damage.Done d = Damage.apply(Files.readAllBytes(fixtures.resolve(base)), new SplittableRandom(seed));
        Files.write(file, d.bytes());
        return new Case(file, d.what());
    }

    @Override
    public Outcome readAll(Case c) throws IOException {
        Path file = c.path();
        TokenType type = file.toString().endsWith(".u32") ? TokenType.U32 : TokenType.U16;
        TokenFile tokens;
        try {
            tokens = TokenFile.open(file, type);
        } catch (TokenFileException e) {
            FormatErrors.requireNamed(e, file, false, TokenFileException.class);
            return Outcome.REFUSED_OPEN;
        }
        try (tokens) {
            TokenWindowDataset tiled;
            TokenWindowDataset random;
            try {
                tiled = TokenWindowDataset.nonOverlapping(tokens, SEQ_LEN);
                random = TokenWindowDataset.random(tokens, SEQ_LEN, 20, 1);
            } catch (IllegalArgumentException e) { // too short for a window
                FormatErrors.requireNamed(e, file, false, IllegalArgumentException.class);
                return Outcome.REFUSED_OPEN;
            }
            for (TokenWindowDataset windows : new TokenWindowDataset[] {tiled, random}) {
                for (long i = 0; i < windows.size(); i++) {
                    windows.get(i).input().toLongArray();
                }
                try (DataLoader<TokenWindow> loader = DataLoader.builder(windows).batchSize(4).build()) {
                    for (Batch b : loader) {
                        b.close();
                    }
                }
            }
        }
        return Outcome.CLEAN;
    }
}
