package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PeakMemoryTest {

    @Test
    void seesMemoryTouchedAndFreedWhileItRan() {
        assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "needs Linux's /proc");
        long touched = 64L << 20;
        try (PeakMemory peak = PeakMemory.start(Duration.ofMillis(5))) {
            long before = peak.peakRssBytes();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment s = arena.allocate(touched);
                s.fill((byte) 1); // resident only once written
            }
            // freed again: only the high-water mark (or a lucky sample) still knows
            assertThat(peak.peakRssBytes()).isGreaterThanOrEqualTo(before + touched / 2);
        }
    }
}
