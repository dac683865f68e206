package dev.stoker.vision.decode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.vision.Fixtures;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class JpegScansTest {
    @Test
    void countsTheScansOfTheFixtures() {
        assertThat(JpegScans.count(Fixtures.bytes("decode/rgb420_q90.jpg"), 500)).isEqualTo(1);
        assertThat(JpegScans.count(Fixtures.bytes("decode/cmyk.jpg"), 500)).isEqualTo(1);
        assertThat(JpegScans.count(Fixtures.bytes("decode/progressive.jpg"), 500)).isEqualTo(10);
    }

    @Test
    void stopsCountingPastTheLimit() {
        byte[] bomb = DecodeErrorsTest.withRepeatedLastScan(Fixtures.bytes("decode/progressive.jpg"), 600);
        assertThat(JpegScans.count(bomb, 10_000)).isEqualTo(610);
        assertThat(JpegScans.count(bomb, 500)).isEqualTo(501);
    }

    /** Off the heap (a mapped file, the copy libjpeg-turbo reads), the count is the same. */
    @Test
    void countsBytesOffTheHeap() {
        byte[] bomb = DecodeErrorsTest.withRepeatedLastScan(Fixtures.bytes("decode/progressive.jpg"), 600);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment offHeap = arena.allocate(bomb.length);
            MemorySegment.copy(MemorySegment.ofArray(bomb), 0, offHeap, 0, bomb.length);
            assertThat(JpegScans.count(offHeap, 10_000)).isEqualTo(610);
            assertThat(JpegScans.count(offHeap, 500)).isEqualTo(501);
        }
    }

    /** Truncated anywhere, or junk, it still ends: it counts what it can see. */
    @Test
    void truncatedOrGarbageInputEnds() {
        byte[] progressive = Fixtures.bytes("decode/progressive.jpg");
        for (int n = 0; n <= progressive.length; n++) {
            assertThat(JpegScans.count(Arrays.copyOf(progressive, n), 500)).isBetween(0, 10);
        }
        assertThat(JpegScans.count(Fixtures.bytes("decode/garbage.jpg"), 500)).isZero();
    }
}
