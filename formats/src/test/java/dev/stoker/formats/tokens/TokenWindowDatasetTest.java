package dev.stoker.formats.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.collate.DefaultCollate;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenWindowDatasetTest {
    @TempDir
    Path dir;

    @Test
    void aWindowIsInputAndTargetShiftedByOne() throws IOException {
        long[] values = TokenFiles.valuesU16(50, 1);
        Files.write(dir.resolve("t.bin"), TokenFiles.bytes(values, 2));
        try (TokenFile tokens = TokenFile.open(dir.resolve("t.bin"), TokenType.U16)) {
            assertThat(tokens.size()).isEqualTo(50);
            assertThat(tokens.get(0)).isEqualTo(65535);
            TokenWindowDataset ds = TokenWindowDataset.atOffsets(tokens, 8, new long[] {0, 41, 17});
            assertThat(ds.size()).isEqualTo(3);
            for (int i = 0; i < 3; i++) {
                long o = ds.offset(i);
                TokenWindow w = ds.get(i);
                assertThat(w.input().dtype()).isEqualTo(DType.I64);
                assertThat(w.input().shape()).isEqualTo(Shape.of(8));
                assertThat(w.input().toLongArray()).containsExactly(Arrays.copyOfRange(values, (int) o, (int) o + 8));
                assertThat(w.target().toLongArray()).containsExactly(Arrays.copyOfRange(values, (int) o + 1, (int) o + 9));
            }
        }
    }

    @Test
    void u32TokensAreUnsigned() throws IOException {
        long[] values = {0xFFFF_FFFFL, 0, 70_000, 1, 2, 3};
        Files.write(dir.resolve("t.bin"), TokenFiles.bytes(values, 4));
        try (TokenFile tokens = TokenFile.open(dir.resolve("t.bin"), TokenType.U32)) {
            TokenWindow w = TokenWindowDataset.nonOverlapping(tokens, 2).get(0);
            assertThat(w.input().toLongArray()).containsExactly(0xFFFF_FFFFL, 0);
            assertThat(w.target().toLongArray()).containsExactly(0, 70_000);
        }
    }

    @Test
    void nonOverlappingWindowsTileTheFile() {
        assertThat(WindowOffsets.nonOverlapping(10, 3)).containsExactly(0, 3, 6); // 6..9 + target 10th token
        assertThat(WindowOffsets.nonOverlapping(9, 3)).containsExactly(0, 3);
        assertThat(WindowOffsets.nonOverlapping(3, 3)).isEmpty();
    }

    @Test
    void randomOffsetsAreSeededAndInRange() {
        long[] a = WindowOffsets.random(1000, 100, 5000, 7);
        assertThat(a).isEqualTo(WindowOffsets.random(1000, 100, 5000, 7));
        assertThat(a).isNotEqualTo(WindowOffsets.random(1000, 100, 5000, 8));
        assertThat(Arrays.stream(a).allMatch(o -> o >= 0 && o <= 899)).isTrue();
        assertThat(Arrays.stream(a).min().getAsLong()).isZero();
        assertThat(Arrays.stream(a).max().getAsLong()).isEqualTo(899);
        assertThatThrownBy(() -> WindowOffsets.random(100, 100, 1, 0)).hasMessageContaining("shorter than one window");
    }

    @Test
    void offsetsOutsideTheFileAreRefusedByPosition() throws IOException {
        Path p = TokenFiles.writeU16(dir.resolve("t.bin"), 20, 2);
        try (TokenFile tokens = TokenFile.open(p, TokenType.U16)) {
            assertThatThrownBy(() -> TokenWindowDataset.atOffsets(tokens, 4, new long[] {0, 15, 16}))
                    .hasMessageContaining("window 2 starts at token 16")
                    .hasMessageContaining("[0, 15]")
                    .hasMessageContaining(p.toString());
            assertThatThrownBy(() -> TokenWindowDataset.atOffsets(tokens, 4, new long[] {-1}))
                    .hasMessageContaining("window 0");
        }
    }

    @Test
    void aPartialTokenIsRefusedNamingTheFile() throws IOException {
        Path p = dir.resolve("odd.bin");
        Files.write(p, new byte[7]);
        assertThatThrownBy(() -> TokenFile.open(p, TokenType.U16)).isInstanceOf(TokenFileException.class)
                .hasMessageContaining(p.toString()).hasMessageContaining("7 bytes");
        assertThatThrownBy(() -> TokenFile.open(p, TokenType.U32)).hasMessageContaining("partial token");
        Path empty = dir.resolve("empty.bin");
        Files.write(empty, new byte[0]);
        try (TokenFile tokens = TokenFile.open(empty, TokenType.U16)) {
            assertThat(tokens.size()).isZero();
            assertThat(TokenWindowDataset.nonOverlapping(tokens, 4).size()).isZero();
        }
    }

    /** The fill path (windows written into the batch) gives exactly what collating get() gives. */
    @Test
    void fillingTheBatchEqualsCollatingTheSamples() throws IOException {
        Path p = TokenFiles.writeU16(dir.resolve("t.bin"), 5000, 3);
        try (TokenFile tokens = TokenFile.open(p, TokenType.U16)) {
            TokenWindowDataset ds = TokenWindowDataset.random(tokens, 64, 203, 5);
            List<long[]> filled = batches(DataLoader.builder(ds).batchSize(16).build());
            List<long[]> collated = batches(DataLoader.builder(ds).batchSize(16)
                    .collate(DefaultCollate.instance()::collate).build());
            assertThat(filled).hasSize(2 * 13);
            for (int k = 0; k < filled.size(); k++) {
                assertThat(filled.get(k)).isEqualTo(collated.get(k));
            }
        }
    }

    private static List<long[]> batches(DataLoader<TokenWindow> loader) {
        List<long[]> out = new ArrayList<>();
        try (loader) {
            for (Batch b : loader) {
                try (b) {
                    Tensor input = b.tensor("input");
                    Tensor target = b.tensor("target");
                    assertThat(input.shape()).isEqualTo(Shape.of(b.indices().length, 64));
                    out.add(input.toLongArray());
                    out.add(target.toLongArray());
                }
            }
            assertThat(loader.pool().lentBytes()).isZero();
        }
        return out;
    }

    @Test
    void windowsAtEveryOffsetMatchTheFile() throws IOException {
        Random rnd = new Random(4);
        for (int round = 0; round < 20; round++) {
            int n = 2 + rnd.nextInt(300);
            long[] values = TokenFiles.valuesU16(n, round);
            Path p = dir.resolve("r" + round + ".bin");
            Files.write(p, TokenFiles.bytes(values, 2));
            try (TokenFile tokens = TokenFile.open(p, TokenType.U16)) {
                int seqLen = 1 + rnd.nextInt(n - 1);
                TokenWindowDataset ds = TokenWindowDataset.random(tokens, seqLen, 10, round);
                for (int i = 0; i < ds.size(); i++) {
                    int o = (int) ds.offset(i);
                    assertThat(ds.get(i).target().toLongArray())
                            .containsExactly(Arrays.copyOfRange(values, o + 1, o + 1 + seqLen));
                }
            }
        }
    }

    /**
     * Truncated token files, seeded: each either opens with fewer tokens, whose windows are then
     * checked against the file, or is refused naming the file; never another exception.
     */
    @Test
    void truncatedFilesAreReadOrRefusedClearly() throws IOException {
        byte[] good = TokenFiles.bytes(TokenFiles.valuesU16(600, 8), 2);
        Random rnd = new Random(99);
        int refused = 0;
        for (int k = 0; k < 2000; k++) {
            int length = rnd.nextInt(good.length + 1);
            TokenType type = rnd.nextBoolean() ? TokenType.U16 : TokenType.U32;
            Path p = dir.resolve("cut.bin");
            Files.write(p, Arrays.copyOf(good, length));
            try (TokenFile tokens = TokenFile.open(p, type)) {
                assertThat(tokens.size()).isEqualTo(length / type.bytes());
                int seqLen = 1 + rnd.nextInt(64);
                long[] offsets = {rnd.nextInt(700)};
                try {
                    TokenWindowDataset ds = TokenWindowDataset.atOffsets(tokens, seqLen, offsets);
                    assertThat(ds.get(0).target().elements()).isEqualTo(seqLen);
                } catch (IllegalArgumentException e) {
                    assertThat(e.getMessage()).startsWith(p.toString()).contains("window 0 starts at token");
                    refused++;
                }
            } catch (TokenFileException e) {
                assertThat(e.getMessage()).startsWith(p.toString()).contains("partial token");
                refused++;
            }
        }
        assertThat(refused).isPositive();
    }

    /** Found by the corruption fuzz: the refusal of a file too short for one window named no file. */
    @Test
    void aFileTooShortForOneRandomWindowIsNamed() throws IOException {
        Path p = TokenFiles.writeU16(dir.resolve("short.bin"), 5, 1);
        try (TokenFile tokens = TokenFile.open(p, TokenType.U16)) {
            assertThatThrownBy(() -> TokenWindowDataset.random(tokens, 16, 4, 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(p + ": a stream of 5 tokens is shorter than one window of 16 + 1 tokens");
        }
    }
}
