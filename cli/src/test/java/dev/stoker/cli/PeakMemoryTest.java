package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeakMemoryTest {

    @Test
    void seesMemoryTouchedAndFreedWhileItRan(@TempDir Path dir) throws IOException {
        assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "needs Linux's /proc");
        long touched = 64L << 20;
        try (PeakMemory peak = PeakMemory.start(Duration.ofMillis(5))) {
            long before = peak.peakRssBytes();
            long seen;
            // a new file's pages, mapped: resident only once written, and never memory the
            // process already held (malloc may hand back freed pages that are still resident)
            Path file = dir.resolve("touched.bin");
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE); Arena arena = Arena.ofConfined()) {
                MemorySegment s = ch.map(FileChannel.MapMode.READ_WRITE, 0, touched, arena);
                s.fill((byte) 1);
                // held until seen: where the kernel keeps no resettable high-water mark, only the
                // sampler can see it, and on a loaded machine it may not run within a short hold
                long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
                do {
                    seen = peak.peakRssBytes();
                } while (seen < before + touched / 2 && System.nanoTime() < deadline && sleep());
            }
            assertThat(seen).isGreaterThanOrEqualTo(before + touched / 2);
            // freed again: the peak still knows
            assertThat(peak.peakRssBytes()).isGreaterThanOrEqualTo(before + touched / 2);
        }
    }

    private static boolean sleep() {
        try {
            Thread.sleep(10);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
