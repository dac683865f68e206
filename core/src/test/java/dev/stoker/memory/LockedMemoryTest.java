package dev.stoker.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class LockedMemoryTest {
    private static final Path STATUS = Path.of("/proc/self/status");

    /** The kernel's count of this process's locked memory, in KiB. */
    private static long lockedKib() throws IOException {
        return Files.readAllLines(STATUS).stream()
                .filter(l -> l.startsWith("VmLck:"))
                .map(l -> l.replaceAll("[^0-9]", ""))
                .mapToLong(Long::parseLong)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void closingALockedBlockUnlocksItsPages() throws IOException {
        assumeTrue(Files.isReadable(STATUS), "needs Linux's /proc/self/status");
        LockedMemory source = new LockedMemory();
        // 64 KiB stays on malloc's heap when freed, so only munlock can drop its pages' lock.
        Allocation a = source.allocate(64 * 1024, 4096);
        assumeTrue(a.isPageLocked(), () -> "mlock refused here: " + source.describe());
        long whileLocked = lockedKib();
        assertThat(source.lockedBytes()).isEqualTo(64 * 1024);
        a.close();
        assertThat(source.lockedBytes()).isZero();
        assertThat(lockedKib()).as("VmLck after close").isLessThanOrEqualTo(whileLocked - 64);
    }
}
