package dev.stoker.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
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

    /**
     * In a new JVM (a child of this one: whether the calls are linked is the JVM's state) the first
     * large block is allocated at once, not mapped, and does not start the link (it would run beside
     * a new loader's first batch); the second starts it in the background, and is allocated too;
     * once the link is done, large blocks are mappings on a huge-page boundary again.
     */
    @Test
    void theFirstBlocksAreAllocatedWhileTheLinkRunsInTheBackgroundAndMappedAfter() throws Exception {
        Assumptions.assumeTrue(AnonymousMemory.available(), "mmap and madvise: Linux only");
        String javaCommand = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(javaCommand, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), FirstBlocks.class.getName()).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(out).isZero();
        assertThat(out).contains("first: linked=false started=false mapped=false",
                "second: started=true mapped=false", "later: linked=true mapped=true");
    }

    /** The child of the test above. */
    static final class FirstBlocks {
        public static void main(String[] args) throws InterruptedException {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment first = OrdinaryMemory.fresh(4L << 20, 64, arena);
                boolean firstLinked = AnonymousMemory.linked();
                boolean firstStarted = AnonymousMemory.linkStarted();
                first.fill((byte) 1);
                System.out.println("first: linked=" + firstLinked + " started=" + firstStarted + " mapped="
                        + (first.address() % AnonymousMemory.HUGE_PAGE == 0));
                MemorySegment second = OrdinaryMemory.fresh(4L << 20, 64, arena);
                System.out.println("second: started=" + AnonymousMemory.linkStarted() + " mapped="
                        + (second.address() % AnonymousMemory.HUGE_PAGE == 0));
                for (int i = 0; i < 6000 && !AnonymousMemory.linked(); i++) {
                    Thread.sleep(10);
                }
                MemorySegment later = OrdinaryMemory.fresh(4L << 20, 64, arena);
                System.out.println("later: linked=" + AnonymousMemory.linked() + " mapped="
                        + (later.address() % AnonymousMemory.HUGE_PAGE == 0));
            }
        }
    }

    /**
     * In a new JVM, a caller that links the calls itself ({@link MemorySources#linkNativeCalls}, as
     * the JPEG decoder does once libjpeg-turbo is linked) has the very first large block mapped.
     */
    @Test
    void afterLinkNativeCallsTheFirstBlockOfANewJvmIsMapped() throws Exception {
        Assumptions.assumeTrue(AnonymousMemory.available(), "mmap and madvise: Linux only");
        String javaCommand = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(javaCommand, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), LinkedFirst.class.getName()).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(out).isZero();
        assertThat(out).contains("before: linked=false", "first: mapped=true");
    }

    /** The child of the test above. */
    static final class LinkedFirst {
        public static void main(String[] args) {
            System.out.println("before: linked=" + AnonymousMemory.linked());
            MemorySources.linkNativeCalls();
            MemorySources.linkNativeCalls(); // a second call returns at once
            try (Arena arena = Arena.ofShared()) {
                MemorySegment first = OrdinaryMemory.fresh(4L << 20, 64, arena);
                System.out.println("first: mapped=" + (first.address() % AnonymousMemory.HUGE_PAGE == 0));
            }
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
