package dev.stoker.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SizeClassTest {

    @Test
    void smallRequestsRoundToPowersOfTwo() {
        assertThat(SizeClass.of(0)).isEqualTo(64);
        assertThat(SizeClass.of(1)).isEqualTo(64);
        assertThat(SizeClass.of(64)).isEqualTo(64);
        assertThat(SizeClass.of(65)).isEqualTo(128);
        assertThat(SizeClass.of(1000)).isEqualTo(1024);
        assertThat(SizeClass.of(4096)).isEqualTo(4096);
    }

    @Test
    void largeRequestsWasteAtMostAnEighth() {
        assertThat(SizeClass.of(4097)).isEqualTo(4608);
        assertThat(SizeClass.of(32L * 602_112)).isEqualTo(SizeClass.of(32L * 602_112 - 1000));
        SplittableRandom random = new SplittableRandom(8);
        for (int i = 0; i < 100_000; i++) {
            long bytes = random.nextLong(4097, 1L << 40);
            long cls = SizeClass.of(bytes);
            assertThat(cls).isGreaterThanOrEqualTo(bytes);
            assertThat(cls - bytes).isLessThanOrEqualTo(bytes / 8);
            assertThat(SizeClass.of(cls)).as("a class is its own class").isEqualTo(cls);
        }
    }

    @Test
    void alignmentIsAPageFrom64KiB() {
        assertThat(SizeClass.alignment(64)).isEqualTo(64);
        assertThat(SizeClass.alignment(61_440)).isEqualTo(64);
        assertThat(SizeClass.alignment(65_536)).isEqualTo(4096);
        assertThat(SizeClass.alignment(1L << 30)).isEqualTo(4096);
    }

    @Test
    void negativeSizesAreRejected() {
        assertThatThrownBy(() -> SizeClass.of(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
