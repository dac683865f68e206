package dev.stoker.formats.npy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of seeded corruptions of valid files (truncations, flipped bytes, overwritten header
 * characters): each one is either still a valid file whose data fits it exactly, or refused with
 * an {@link NpyFormatException} naming the file. Never another exception, a hang or an
 * allocation from an unchecked size.
 */
class NpyCorruptionTest {
    private static final int PER_FILE = 1500;

    @TempDir
    Path dir;

    @Test
    void everyCorruptionIsReadOrRefusedClearly() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(NpyFixturesTest.folder())) {
            files = s.filter(p -> p.getFileName().toString().matches("(le|be|scalar|empty|v2|v3|three).*\\.npy"))
                    .sorted().toList();
        }
        assertThat(files).hasSizeGreaterThan(15);
        Random rnd = new Random(2026);
        int refused = 0;
        int read = 0;
        for (Path f : files) {
            byte[] good = Files.readAllBytes(f);
            for (int k = 0; k < PER_FILE; k++) {
                byte[] bad = mutate(good, rnd);
                String source = f.getFileName() + "#" + k;
                try {
                    NpyHeader h = NpyHeader.parse(MemorySegment.ofArray(bad), source);
                    assertThat(h.dataOffset() + h.dataBytes()).isEqualTo(bad.length);
                    read++;
                } catch (NpyFormatException e) {
                    assertThat(e.getMessage()).startsWith(source + ": ");
                    refused++;
                } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
                    fail("corruption " + source + " threw " + e, e);
                }
            }
        }
        assertThat(refused).isGreaterThan(files.size() * PER_FILE / 2);
        assertThat(read + refused).isEqualTo(files.size() * PER_FILE);
    }

    @Test
    void corruptFilesOnDiskAreRefusedNamingThem() throws IOException {
        byte[] good = Files.readAllBytes(NpyFixturesTest.folder().resolve("le_f8.npy"));
        Random rnd = new Random(7);
        for (int k = 0; k < 200; k++) {
            byte[] bad = mutate(good, rnd);
            Path p = dir.resolve("bad" + k + ".npy");
            Files.write(p, bad);
            try (NpyFile npy = NpyFile.open(p)) {
                assertThat(npy.header().dataOffset() + npy.header().dataBytes()).isEqualTo(bad.length);
            } catch (NpyFormatException e) {
                assertThat(e.getMessage()).startsWith(p + ": ");
            }
        }
    }

    static byte[] mutate(byte[] good, Random rnd) {
        byte[] b;
        switch (rnd.nextInt(5)) {
            case 0 -> b = java.util.Arrays.copyOf(good, rnd.nextInt(good.length)); // truncated
            case 1 -> { // a few random bytes anywhere in the header
                b = good.clone();
                int header = Math.min(b.length, 128);
                for (int i = rnd.nextInt(3); i >= 0; i--) {
                    b[rnd.nextInt(header)] = (byte) rnd.nextInt(256);
                }
            }
            case 2 -> { // a printable character in the dict, where a parser is most likely to go wrong
                b = good.clone();
                String alphabet = "{}()[],:'\"0123456789-LTrueFalsNo \n\\";
                int at = 10 + rnd.nextInt(Math.min(b.length, 128) - 10);
                b[at] = (byte) alphabet.charAt(rnd.nextInt(alphabet.length()));
            }
            case 3 -> { // the header length field
                b = good.clone();
                b[8 + rnd.nextInt(2)] = (byte) rnd.nextInt(256);
            }
            default -> { // extra bytes at the end
                b = java.util.Arrays.copyOf(good, good.length + 1 + rnd.nextInt(64));
            }
        }
        return b;
    }
}
