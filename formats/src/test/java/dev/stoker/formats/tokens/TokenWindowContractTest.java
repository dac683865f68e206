package dev.stoker.formats.tokens;

import dev.stoker.formats.contract.MappedDatasetContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

class TokenWindowContractTest extends MappedDatasetContract<TokenWindow> {
    @TempDir
    Path dir;
    private Path file;

    @Override
    protected Path mappedFile() {
        return file;
    }

    @Override
    protected Opened<TokenWindow> open() throws Exception {
        file = TokenFiles.writeU16(dir.resolve("t.bin"), 200, 9);
        TokenFile tokens = TokenFile.open(file, TokenType.U16);
        return new Opened<>(TokenWindowDataset.random(tokens, 16, 20, 3), tokens);
    }

    @Override
    protected Object content(TokenWindow w) {
        return List.of(Arrays.toString(w.input().toLongArray()), Arrays.toString(w.target().toLongArray()));
    }
}
