package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Thousands of seeded corruptions and truncations of valid shards: each one either still reads
 * (a flipped byte in member data is not detectable) or fails with a {@link TarException}; never
 * another exception, a hang or a large allocation.
 */
class TarCorruptionTest {

    @Test
    void randomDamageGivesATarExceptionOrValidMembers() throws Exception {
        List<Path> inputs = List.of(Fixtures.tar("ustar.tar"), Fixtures.tar("pax.tar"), Fixtures.tar("gnu.tar"),
                Fixtures.tar("gnutar.tar"));
        Random rnd = new Random(2026);
        int errors = 0;
        for (int trial = 0; trial < 4000; trial++) {
            byte[] good = Files.readAllBytes(inputs.get(trial % inputs.size()));
            byte[] bad = damage(good, rnd);
            errors += readAll(bad, trial) ? 0 : 1;
        }
        assertThat(errors).isGreaterThan(1000); // most damage is caught
    }

    static byte[] damage(byte[] good, Random rnd) {
        switch (rnd.nextInt(4)) {
            case 0 -> {
                return Arrays.copyOf(good, rnd.nextInt(good.length));
            }
            case 1 -> { // a random byte of a header block
                byte[] b = good.clone();
                int block = rnd.nextInt(6);
                b[block * 512 + rnd.nextInt(512)] = (byte) rnd.nextInt(256);
                return b;
            }
            case 2 -> { // a size field rewritten, checksum fixed, so the size itself is tested
                byte[] b = good.clone();
                int at = rnd.nextInt(4) * 512;
                for (int i = 124; i < 136; i++) {
                    b[at + i] = (byte) (rnd.nextBoolean() ? '0' + rnd.nextInt(8) : rnd.nextInt(256));
                }
                fixChecksum(b, at);
                return b;
            }
            default -> {
                byte[] b = good.clone();
                for (int k = 0; k < 1 + rnd.nextInt(20); k++) {
                    b[rnd.nextInt(b.length)] ^= (byte) (1 + rnd.nextInt(255));
                }
                return b;
            }
        }
    }

    static void fixChecksum(byte[] b, int at) {
        Arrays.fill(b, at + 148, at + 156, (byte) ' ');
        long sum = 0;
        for (int i = 0; i < 512; i++) {
            sum += b[at + i] & 0xFF;
        }
        TarNumbers.writeOctal(b, at + 148, 7, sum);
    }

    /** Reads every sample both ways; true when it read, false on a TarException. */
    static boolean readAll(byte[] bytes, int trial) {
        boolean mapped = read(() -> TarReader.over("trial-" + trial, MemorySegment.ofArray(bytes)), trial);
        boolean streamed = read(() -> TarReader.open("trial-" + trial, new ByteArrayInputStream(bytes), -1), trial);
        boolean known = read(() -> TarReader.open("trial-" + trial, new ByteArrayInputStream(bytes), bytes.length),
                trial);
        assertThat(streamed).as("trial %d: stream and map agree", trial).isEqualTo(mapped);
        assertThat(known).as("trial %d", trial).isEqualTo(mapped);
        return mapped;
    }

    interface Opener {
        TarReader open();
    }

    static boolean read(Opener opener, int trial) {
        try (TarReader r = opener.open()) {
            SampleGrouper g = new SampleGrouper(r);
            long total = 0;
            while (g.hasNext()) {
                for (TarMember m : g.next().members()) {
                    total += m.size();
                }
            }
            assertThat(total).isLessThan(1 << 20);
            return true;
        } catch (TarException e) {
            assertThat(e.getMessage()).contains("trial-" + trial, "byte offset");
            return false;
        } catch (RuntimeException e) {
            fail("trial " + trial + ": not a TarException", e);
            return false;
        }
    }
}
