package dev.stoker.formats.megatron;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged .idx/.bin pairs are refused at open with a {@link MegatronFormatException} naming the
 * file, the sequence or document and what was wrong ({@link MegatronCorruptionFuzzTest} runs the
 * seeded fuzz over every fixture).
 */
class MegatronCorruptionTest {
    // the uint16 fixture: 20 sequences, 10 document indices, a 690-byte .bin
    private static final int S = 20;
    private static final int LENGTHS = 34;
    private static final int POINTERS = LENGTHS + 4 * S;
    private static final int DOCS = POINTERS + 8 * S;

    @TempDir
    Path dir;

    @Test
    void theFixtureIsWhatTheseOffsetsAssume() throws Exception {
        try (MegatronDataset ds = MegatronDataset.open(MegatronFixtures.prefix("uint16"))) {
            assertThat(ds.size()).isEqualTo(S);
            assertThat(ds.documentCount()).isEqualTo(9);
        }
    }

    @Test
    void aBadHeaderIsNamed() throws Exception {
        refused(b -> b.put(0, (byte) 'X'), "does not start with MMIDIDX");
        refused(b -> b.putLong(9, 2), "has version 2");
        refused(b -> b.put(17, (byte) 6), "dtype code 6 (float64), which is not a token type");
        refused(b -> b.put(17, (byte) 9), "dtype code 9, which is none of Megatron's");
        refused(b -> b.putLong(18, 1L << 62), "claims 4611686018427387904 sequences");
        refused(b -> b.putLong(18, -1), "claims 18446744073709551615 sequences");
        refused(b -> b.putLong(26, 1L << 40), "document indices after 20 sequences");
        refused(b -> b.putLong(18, S - 1), "truncated or trailing bytes");
    }

    @Test
    void aShortOrLongIndexIsNamed() throws Exception {
        Path p = MegatronFixtures.copy("uint16", dir);
        Path idx = MegatronDataset.idxPath(p);
        byte[] bytes = Files.readAllBytes(idx);
        Files.write(idx, Arrays.copyOf(bytes, bytes.length - 3));
        expect(p, "claims 10 document indices after 20 sequences, more than its 351 bytes can hold");
        Files.write(idx, Arrays.copyOf(bytes, bytes.length + 1));
        expect(p, "truncated or trailing bytes");
        Files.write(idx, Arrays.copyOf(bytes, 20));
        expect(p, "shorter than the 34-byte header");
        Files.write(idx, new byte[0]);
        expect(p, "is 0 bytes");
    }

    @Test
    void aSequenceOutsideTheBinIsNamed() throws Exception {
        refused(b -> b.putInt(LENGTHS + 4 * 4, -7), "sequence 4 has a negative length, -7");
        refused(b -> b.putLong(POINTERS + 8 * 5, 2), "sequence 5 starts at byte 2, before sequence 4");
        refused(b -> b.putInt(LENGTHS + 4 * (S - 1), Integer.MAX_VALUE), "sequence 19 is bytes");
        refused(b -> b.putLong(POINTERS + 8 * (S - 1), Long.MAX_VALUE), "outside the 690-byte .bin");
        Path p = MegatronFixtures.copy("uint16", dir);
        Path bin = MegatronDataset.binPath(p);
        Files.write(bin, Arrays.copyOf(Files.readAllBytes(bin), 688));
        expect(p, "sequence 19 is bytes");
    }

    @Test
    void badDocumentIndicesAreNamed() throws Exception {
        refused(b -> b.putLong(DOCS, 1), "document index 0 is 1");
        refused(b -> b.putLong(DOCS + 8 * 4, 2), "document 3 ends at sequence 2");
        refused(b -> b.putLong(DOCS + 8 * 5, S + 1), "document 4 ends at sequence 21");
        refused(b -> b.putLong(DOCS + 8 * 9, S - 1), "the sequences after it belong to no document");
    }

    @Test
    void aMissingFileIsAnIoErrorNamingIt() {
        assertThatThrownBy(() -> MegatronDataset.open(dir.resolve("none"))).isInstanceOf(IOException.class)
                .hasMessageContaining("none.bin");
    }

    /** Mutates the uint16 fixture's .idx through {@code damage} and expects {@code phrase}. */
    private void refused(Consumer<ByteBuffer> damage, String phrase) throws IOException {
        Path p = Files.createTempDirectory(dir, "c").resolve("x");
        Path from = MegatronFixtures.prefix("uint16");
        Files.copy(MegatronDataset.binPath(from), MegatronDataset.binPath(p));
        ByteBuffer idx = ByteBuffer.wrap(Files.readAllBytes(MegatronDataset.idxPath(from))).order(ByteOrder.LITTLE_ENDIAN);
        damage.accept(idx);
        Files.write(MegatronDataset.idxPath(p), idx.array());
        expect(p, phrase);
    }

    private static void expect(Path prefix, String phrase) {
        assertThatThrownBy(() -> MegatronDataset.open(prefix).close()).isInstanceOf(MegatronFormatException.class)
                .hasMessageContaining(MegatronDataset.idxPath(prefix).toString()).hasMessageContaining(phrase);
    }
}
