package dev.stoker.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class AnonymousMemoryTest {

    @Test
    void aLargeBlockIsAZeroedMappingOnAHugePageBoundaryGoneWithItsArena() {
        Assumptions.assumeTrue(AnonymousMemory.available(), "mmap and madvise: Linux only");
        Arena arena = Arena.ofShared();
        MemorySegment block = AnonymousMemory.map(5L << 20, 4096, arena);
        assertThat(block).isNotNull();
        assertThat(block.byteSize()).isEqualTo(5L << 20);
        assertThat(block.address() % AnonymousMemory.HUGE_PAGE).isZero();
        for (long i = 0; i < block.byteSize(); i += 4096) {
            assertThat(block.get(ValueLayout.JAVA_BYTE, i)).isZero();
        }
        block.fill((byte) 7);
        assertThat(block.get(ValueLayout.JAVA_BYTE, block.byteSize() - 1)).isEqualTo((byte) 7);
        arena.close();
        assertThatThrownBy(() -> block.get(ValueLayout.JAVA_BYTE, 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void ordinaryMemoryMapsLargeBlocksAndAllocatesSmallOnes() {
        Assumptions.assumeTrue(AnonymousMemory.available(), "mmap and madvise: Linux only");
        try (Allocation large = MemorySources.ordinary().allocate(4L << 20, 64);
             Allocation small = MemorySources.ordinary().allocate(64 << 10, 64)) {
            assertThat(large.segment().address() % AnonymousMemory.HUGE_PAGE).isZero();
            assertThat(large.segment().byteSize()).isEqualTo(4L << 20);
            assertThat(small.segment().byteSize()).isEqualTo(64 << 10);
            assertThat(small.segment().address() % 64).isZero();
        }
    }

    @Test
    void anAlignmentBeyondAHugePageIsLeftToTheAllocator() {
        try (Arena arena = Arena.ofConfined()) {
            assertThat(AnonymousMemory.map(4L << 20, 4L << 20, arena)).isNull();
            assertThat(AnonymousMemory.map(0, 64, arena)).isNull();
        }
    }

    @Test
    void lockedMemoryOnAMappingUnlocksBeforeItIsUnmapped() {
        LockedMemory source = new LockedMemory();
        try (Allocation a = source.allocate(3L << 20, 4096)) {
            a.segment().fill((byte) 1);
        }
        assertThat(source.lockedBytes()).isZero();
    }
}
