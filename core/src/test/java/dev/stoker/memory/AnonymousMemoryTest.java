package dev.stoker.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class AnonymousMemoryTest {

    @Test
    void aLargeBlockIsAZeroedMappingOnAHugePageBoundaryGoneWithItsArena() {
        Assumptions.assumeTrue(AnonymousMemory.available(), "mmap and madvise: Linux only");
        Arena arena = Arena.ofShared();
        MemorySegment block = AnonymousMemory.map(5L << 20, 4096, arena, 5L << 20);
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

    /**
     * A 40 MiB block for batches of 36.75 MiB: huge pages asked for up to 36 MiB and refused past
     * it (the kernel's VmFlags {@code hg} and {@code nh}), so writing the batch makes 36.75 MiB
     * resident, not the 38 its last huge page would.
     */
    @Test
    void hugePagesStopAtTheLastWholeHugePageOfWhatTheBlockWillHold() throws Exception {
        Assumptions.assumeTrue(AnonymousMemory.available() && Files.isReadable(Path.of("/proc/self/smaps"))
                        && Files.exists(Path.of("/sys/kernel/mm/transparent_hugepage/enabled")),
                "mmap, madvise, smaps and a kernel with transparent huge pages: Linux only");
        long bytes = 40L << 20, used = 64L * 602_112;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment block = AnonymousMemory.map(bytes, 4096, arena, used);
            assertThat(block).isNotNull();
            long start = block.address(), huge = 36L << 20;
            List<Vma> vmas = vmas(start, start + bytes);
            assertThat(vmas).extracting(Vma::start, Vma::end)
                    .containsExactly(tuple(start, start + huge), tuple(start + huge, start + bytes));
            assertThat(vmas.get(0).flags()).contains("hg");
            assertThat(vmas.get(1).flags()).contains("nh");
            block.asSlice(0, used).fill((byte) 1);
            List<Vma> written = vmas(start, start + bytes);
            Assumptions.assumeTrue(written.get(0).anonHugeKb() > 0, "the kernel gave no huge pages here");
            long residentKb = written.stream().mapToLong(Vma::rssKb).sum();
            assertThat(residentKb).as("resident KiB").isLessThanOrEqualTo(Math.ceilDiv(used, 4096) * 4);
        }
    }

    record Vma(long start, long end, long rssKb, long anonHugeKb, List<String> flags) {}

    /** The mappings of this process that lie inside [from, to), from /proc/self/smaps. */
    private static List<Vma> vmas(long from, long to) throws Exception {
        List<Vma> out = new ArrayList<>();
        long start = -1, end = -1, rss = 0, huge = 0;
        for (String line : Files.readAllLines(Path.of("/proc/self/smaps"))) {
            if (line.matches("^[0-9a-f]+-[0-9a-f]+ .*")) {
                String[] range = line.substring(0, line.indexOf(' ')).split("-");
                start = Long.parseUnsignedLong(range[0], 16);
                end = Long.parseUnsignedLong(range[1], 16);
            } else if (line.startsWith("Rss:")) {
                rss = Long.parseLong(line.replaceAll("\\D", ""));
            } else if (line.startsWith("AnonHugePages:")) {
                huge = Long.parseLong(line.replaceAll("\\D", ""));
            } else if (line.startsWith("VmFlags:") && start >= from && end <= to) {
                out.add(new Vma(start, end, rss, huge, List.of(line.substring(8).trim().split(" "))));
            }
        }
        return out;
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
            assertThat(AnonymousMemory.map(4L << 20, 4L << 20, arena, 4L << 20)).isNull();
            assertThat(AnonymousMemory.map(0, 64, arena, 0)).isNull();
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
                MemorySegment first = OrdinaryMemory.fresh(4L << 20, 64, arena, 4L << 20);
                boolean firstLinked = AnonymousMemory.linked();
                boolean firstStarted = AnonymousMemory.linkStarted();
                first.fill((byte) 1);
                System.out.println("first: linked=" + firstLinked + " started=" + firstStarted + " mapped="
                        + (first.address() % AnonymousMemory.HUGE_PAGE == 0));
                MemorySegment second = OrdinaryMemory.fresh(4L << 20, 64, arena, 4L << 20);
                System.out.println("second: started=" + AnonymousMemory.linkStarted() + " mapped="
                        + (second.address() % AnonymousMemory.HUGE_PAGE == 0));
                for (int i = 0; i < 6000 && !AnonymousMemory.linked(); i++) {
                    Thread.sleep(10);
                }
                MemorySegment later = OrdinaryMemory.fresh(4L << 20, 64, arena, 4L << 20);
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
                MemorySegment first = OrdinaryMemory.fresh(4L << 20, 64, arena, 4L << 20);
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
