package dev.stoker.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MemorySourcesTest {

    private static void assertUsable(MemorySegment segment) {
        segment.fill((byte) 7);
        segment.set(ValueLayout.JAVA_LONG_UNALIGNED, 8, 123_456_789L);
        assertThat(segment.get(ValueLayout.JAVA_BYTE, segment.byteSize() - 1)).isEqualTo((byte) 7);
        assertThat(segment.get(ValueLayout.JAVA_LONG_UNALIGNED, 8)).isEqualTo(123_456_789L);
    }

    @Test
    void ordinaryMemoryIsUsableAlignedAndSaysWhatItIs() {
        MemorySource source = MemorySources.ordinary();
        try (Allocation a = source.allocate(10_000, 4096)) {
            assertThat(a.byteSize()).isEqualTo(10_000);
            assertThat(a.segment().address() % 4096).isZero();
            assertThat(a.isPageLocked()).isFalse();
            assertUsable(a.segment());
        }
        assertThat(source.isPageLocked()).isFalse();
        assertThat(source.describe()).startsWith("ordinary off-heap memory");
    }

    @Test
    void lockedMemoryIsUsableAndSaysWhetherItIsLocked() {
        MemorySource source = MemorySources.locked();
        try (Allocation a = source.allocate(64 * 1024, 4096)) {
            assertThat(a.byteSize()).isEqualTo(64 * 1024);
            assertThat(a.segment().address() % 4096).isZero();
            assertUsable(a.segment());
            String describe = source.describe();
            assertThat(describe).satisfiesAnyOf(
                    d -> assertThat(d).isEqualTo("memory locked with mlock (no CUDA: not registered with a device)"),
                    d -> assertThat(d).matches("ordinary memory \\(.+\\); (some blocks are locked|none is locked)"));
            // the allocation and the description agree
            assertThat(a.isPageLocked()).isEqualTo(describe.startsWith("memory locked"));
            assertThat(source.isPageLocked()).isEqualTo(a.isPageLocked());
        }
    }

    @Test
    void aClosedAllocationCannotBeTouched() {
        for (MemorySource source : new MemorySource[] {MemorySources.ordinary(), MemorySources.locked()}) {
            Allocation a = source.allocate(4096, 64);
            MemorySegment stale = a.segment();
            a.close();
            assertThatThrownBy(() -> stale.get(ValueLayout.JAVA_BYTE, 0)).as(source.describe())
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> stale.fill((byte) 1)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aPoolOverLockedMemoryLendsUsableBuffers() {
        MemorySource source = MemorySources.locked();
        try (BufferPool pool = BufferPool.builder().source(source).budgetBytes(1 << 20)
                .acquireTimeout(Duration.ofSeconds(1)).build();
                PooledBuffer b = pool.acquire(100_000, "locked batch")) {
            assertUsable(b.segment());
            assertThat(b.isPageLocked()).isEqualTo(source.isPageLocked());
            assertThat(pool.source()).isSameAs(source);
        }
    }

    @Test
    void pinnedFallsBackToASourceThatWorks() {
        MemorySource source = MemorySources.pinned();
        try (Allocation a = source.allocate(8192, 4096)) {
            assertUsable(a.segment());
        }
        assertThat(source.describe()).isNotBlank();
    }
}
