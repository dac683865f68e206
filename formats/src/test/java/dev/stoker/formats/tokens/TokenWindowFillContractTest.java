package dev.stoker.formats.tokens;

import dev.stoker.contract.FillableDatasetContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Token windows filled into the batch as collate would make them, for each token type's widening. */
class TokenWindowFillContractTest extends FillableDatasetContract<TokenWindow> {
    @TempDir
    Path dir;

    @Override
    protected Opened<TokenWindow> open() throws Exception {
        TokenFile tokens = TokenFile.open(TokenFiles.writeU16(dir.resolve("t.bin"), 200, 9), TokenType.U16);
        return new Opened<>(TokenWindowDataset.random(tokens, 16, 20, 3), tokens);
    }
}
