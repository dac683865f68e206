package dev.stoker.tensor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HalfFloatsTest {

    @Test
    void bf16IsTheTopHalfOfAFloat() {
        assertThat(HalfFloats.floatToBf16(1.0f)).isEqualTo((short) 0x3F80);
        assertThat(HalfFloats.bf16ToFloat((short) 0x3F80)).isEqualTo(1.0f);
        assertThat(HalfFloats.bf16ToFloat((short) 0xC000)).isEqualTo(-2.0f);
    }

    @Test
    void bf16RoundsToNearestEven() {
        // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: ties go to the even mantissa (1.0)
        assertThat(HalfFloats.floatToBf16(Float.intBitsToFloat(0x3F808000))).isEqualTo((short) 0x3F80);
        // halfway above an odd mantissa rounds up to even
        assertThat(HalfFloats.floatToBf16(Float.intBitsToFloat(0x3F818000))).isEqualTo((short) 0x3F82);
        // just above halfway rounds up
        assertThat(HalfFloats.floatToBf16(Float.intBitsToFloat(0x3F808001))).isEqualTo((short) 0x3F81);
    }

    @Test
    void bf16KeepsNaNAndInfinity() {
        assertThat(HalfFloats.bf16ToFloat(HalfFloats.floatToBf16(Float.NaN))).isNaN();
        // a NaN whose payload sits only in the low bits must not truncate to infinity
        assertThat(HalfFloats.bf16ToFloat(HalfFloats.floatToBf16(Float.intBitsToFloat(0x7F800001)))).isNaN();
        assertThat(HalfFloats.bf16ToFloat(HalfFloats.floatToBf16(Float.POSITIVE_INFINITY))).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(HalfFloats.bf16ToFloat(HalfFloats.floatToBf16(-Float.MAX_VALUE))).isEqualTo(Float.NEGATIVE_INFINITY);
    }

    @Test
    void everyBitPatternRoundTrips() {
        for (int bits = 0; bits < 1 << 16; bits++) {
            short s = (short) bits;
            float bf = HalfFloats.bf16ToFloat(s);
            if (!Float.isNaN(bf)) {
                assertThat(HalfFloats.floatToBf16(bf)).isEqualTo(s);
            }
            float f16 = HalfFloats.f16ToFloat(s);
            if (!Float.isNaN(f16)) {
                assertThat(HalfFloats.floatToF16(f16)).isEqualTo(s);
            }
        }
    }

    @Test
    void conversionErrorStaysWithinHalfAnUlp() {
        SplittableRandom random = new SplittableRandom(16);
        for (int i = 0; i < 10_000; i++) {
            float x = (float) (random.nextDouble(-1, 1) * Math.pow(2, random.nextInt(-10, 10)));
            float bf = HalfFloats.bf16ToFloat(HalfFloats.floatToBf16(x));
            assertThat(Math.abs(bf - x)).isLessThanOrEqualTo(Math.ulp(bf) * 65536 / 2);
        }
    }
}
