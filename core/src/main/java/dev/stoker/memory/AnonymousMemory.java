package dev.stoker.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Large blocks as anonymous mappings that the kernel may back with transparent huge pages
 * ({@code mmap} and {@code madvise(MADV_HUGEPAGE)} on Linux). The first write to a fresh page
 * faults, and a fault per 4 KiB page is what makes fresh memory slow: a virtual machine here
 * touched fresh memory at 0.3 GB/s, and the same block advised for huge pages at over 10 GB/s. A
 * pool's first batches are written into fresh memory, so this is most of their cost. The block is
 * aligned to 2 MiB, so that the kernel can use huge pages for all of it, and unmapped when its arena
 * closes. Where the calls are missing (not Linux), or with {@code -Dstoker.hugepages.disable=true},
 * {@link #map} returns null and the caller allocates as usual.
 */
final class AnonymousMemory {
    /** The size of a transparent huge page on x86-64 and most arm64 kernels. */
    static final long HUGE_PAGE = 2L << 20;
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final int MADV_HUGEPAGE = 14;
    private static final int MADV_NOHUGEPAGE = 15;
    private static final AtomicBoolean LINKING = new AtomicBoolean();
    /** Blocks asked for before the calls were linked: the second starts the link (see {@link #linkInBackground}). */
    private static final AtomicInteger ASKED_UNLINKED = new AtomicInteger();
    /** Set when the native calls are linked (or failed to): until then {@link #map} does not wait for them. */
    private static volatile boolean linked;

    /** Whether a link of the native calls has been started (or done). */
    static boolean linkStarted() {
        return LINKING.get();
    }

    /** Whether the native calls are linked, without waiting for a link under way. */
    static boolean linked() {
        return linked;
    }

    /** The native calls, linked when this class is first used: see {@link #linkInBackground}. */
    private static final class Native {
        private static final MethodHandle MMAP;
        private static final MethodHandle MUNMAP;
        private static final MethodHandle MADVISE;

        static {
            Linker linker = Linker.nativeLinker();
            boolean linux = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")
                    && !Boolean.getBoolean("stoker.hugepages.disable");
            MMAP = !linux ? null : linker.defaultLookup().find("mmap").map(a -> linker.downcallHandle(a,
                    FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG)))
                    .orElse(null);
            MUNMAP = !linux ? null : linker.defaultLookup().find("munmap").map(a -> linker.downcallHandle(a,
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG)))
                    .orElse(null);
            MADVISE = !linux ? null : linker.defaultLookup().find("madvise").map(a -> linker.downcallHandle(a,
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                            ValueLayout.JAVA_INT))).orElse(null);
            linked = true; // whichever thread linked them: the background one, or a caller of available()
        }
    }

    private AnonymousMemory() {
    }

    /**
     * Links the native calls on a thread of their own, once per JVM, unless done: in a new JVM
     * linking them (this class's initializer) takes 100-300 ms of a core, the FFM linker's own
     * start-up most of it. Started by the second block asked for ({@link #map}); that one and
     * every block asked for until the link is done are allocated rather than mapped, and so is the
     * first, a new loader's first batch's, which does not start it: the first batch neither waits
     * for the link nor shares the cores with it (with the link started when a pool was made, W1's
     * cold first batch came about 100 ms later at a load of 7 than with no link at all; started by
     * the first block, it ran beside the first batch's last samples and collate: 0-26 ms later,
     * median 13, in 5 pairs). A thread whose linker is warm links them at once instead
     * ({@link #link}). The link is never done twice.
     */
    static void linkInBackground() {
        if (LINKING.getAndSet(true)) {
            return;
        }
        Thread.ofPlatform().daemon().name("stoker-link-mmap").start(AnonymousMemory::link);
    }

    /**
     * Links the native calls on the calling thread, once per JVM: returns at once when they are
     * linked, waits for a link under way on another thread (the class initialization lock).
     */
    static void link() {
        LINKING.set(true);
        try {
            Class.forName(Native.class.getName(), true, AnonymousMemory.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            // the next block then meets the same error, where it is reported as before
        } finally {
            linked = true;
        }
    }

    /** Whether blocks can be mapped here. */
    static boolean available() {
        return Native.MMAP != null && Native.MUNMAP != null && Native.MADVISE != null;
    }

    /**
     * A zeroed block of {@code bytes}, aligned to 2 MiB, that {@code arena} unmaps when it closes;
     * null where this platform cannot map one or the kernel refused. Huge pages are asked for up to
     * the last whole huge page of {@code used} and refused past it: a batch of 36.75 MiB in a block
     * of 40 would otherwise make its last huge page resident whole, 1.25 MiB that no batch writes.
     *
     * @param alignment at most {@link #HUGE_PAGE}
     * @param used      the bytes the block's buffers will mostly take
     */
    static MemorySegment map(long bytes, long alignment, Arena arena, long used) {
        if (!linked) {
            // Not linked yet: from the second block on, link in the background; allocate this
            // block meanwhile (without huge pages) rather than wait; see linkInBackground.
            if (ASKED_UNLINKED.incrementAndGet() >= 2) {
                linkInBackground();
            }
            return null;
        }
        if (!available() || alignment > HUGE_PAGE || bytes <= 0) {
            return null;
        }
        long length = bytes + HUGE_PAGE; // room to start at a 2 MiB boundary; the slack is never touched
        MemorySegment mapping;
        try {
            mapping = (MemorySegment) Native.MMAP.invokeExact(MemorySegment.NULL, length, PROT_READ_WRITE,
                    MAP_PRIVATE_ANONYMOUS, -1, 0L);
        } catch (Throwable t) {
            return null;
        }
        if (mapping.address() == -1L || mapping.address() == 0L) {
            return null; // MAP_FAILED: out of address space or over a limit; the caller tries malloc
        }
        long start = (mapping.address() + HUGE_PAGE - 1) & -HUGE_PAGE;
        long huge = used >= bytes ? bytes : Math.max(0, used) & -HUGE_PAGE;
        try {
            // Advice, not a demand: with huge pages off ("never") the block is still good memory;
            // past `huge` refused, which also holds where the kernel's setting is "always"
            if (huge > 0) {
                int ignored = (int) Native.MADVISE.invokeExact(MemorySegment.ofAddress(start), huge, MADV_HUGEPAGE);
            }
            if (huge < bytes) {
                int ignored = (int) Native.MADVISE.invokeExact(MemorySegment.ofAddress(start + huge), bytes - huge,
                        MADV_NOHUGEPAGE);
            }
        } catch (Throwable t) {
            // the same: the mapping stands
        }
        long base = mapping.address();
        return MemorySegment.ofAddress(start).reinterpret(bytes, arena, s -> unmap(base, length));
    }

    private static void unmap(long address, long length) {
        try {
            int ignored = (int) Native.MUNMAP.invokeExact(MemorySegment.ofAddress(address), length);
        } catch (Throwable t) {
            // munmap only fails for ranges that are not mappings, which this one is
        }
    }
}
