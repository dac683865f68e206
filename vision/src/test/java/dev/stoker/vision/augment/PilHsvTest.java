package dev.stoker.vision.augment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The table-driven hue shift gives the reference (Pillow's arithmetic, pixel by pixel) to the bit. */
class PilHsvTest {

    @Test
    void everyColourShiftsAsTheReferenceShiftsIt() {
        // All 2^24 colours, one red value (65,536 pixels) at a time, each shift a different one.
        byte[] fast = new byte[3 << 16];
        byte[] reference = new byte[3 << 16];
        for (int r = 0; r < 256; r++) {
            for (int i = 0, at = 0; i < 1 << 16; i++, at += 3) {
                fast[at] = (byte) r;
                fast[at + 1] = (byte) (i >> 8);
                fast[at + 2] = (byte) i;
            }
            System.arraycopy(fast, 0, reference, 0, fast.length);
            int shift = (r * 37 + 11) & 0xFF;
            PilHsv.shiftHue(fast, fast.length, shift);
            for (int at = 0; at < reference.length; at += 3) {
                PilHsv.shiftHueReference(reference, at, shift);
            }
            if (!java.util.Arrays.equals(fast, reference)) {
                int at = java.util.Arrays.mismatch(fast, reference) / 3 * 3;
                assertThat(new int[] {fast[at] & 0xFF, fast[at + 1] & 0xFF, fast[at + 2] & 0xFF})
                        .as("colour (%d, %d, %d), shift %d", r, (at / 3) >> 8, (at / 3) & 0xFF, shift)
                        .containsExactly(reference[at] & 0xFF, reference[at + 1] & 0xFF, reference[at + 2] & 0xFF);
            }
        }
    }

    @Test
    void everyShiftOfRandomColoursAgrees() {
        SplittableRandom rnd = new SplittableRandom(5);
        byte[] fast = new byte[3 * 4096];
        byte[] reference = new byte[fast.length];
        for (int shift = 0; shift < 256; shift++) {
            rnd.nextBytes(fast);
            System.arraycopy(fast, 0, reference, 0, fast.length);
            PilHsv.shiftHue(fast, fast.length, shift);
            for (int at = 0; at < reference.length; at += 3) {
                PilHsv.shiftHueReference(reference, at, shift);
            }
            assertThat(java.util.Arrays.mismatch(fast, reference)).as("shift %d", shift).isEqualTo(-1);
        }
    }
}
