package dev.stoker.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Off-heap memory locked into RAM with {@code mlock(2)}, the CPU-side stand-in for page-locked
 * memory when there is no CUDA driver: the pages cannot be swapped out, so a later copy never
 * faults. When the kernel refuses (typically {@code RLIMIT_MEMLOCK}), the block stays ordinary
 * memory and {@link #describe()} says so and why.
 */
final class LockedMemory implements MemorySource {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(
            MemoryLayout.PathElement.groupElement("errno"));
    private static final MethodHandle MLOCK = find("mlock");
    private static final MethodHandle MUNLOCK = find("munlock");
    private static final int ENOMEM = 12;
    private static final int EPERM = 1;

    private final AtomicLong lockedBytes = new AtomicLong();
    private final AtomicLong unlockedBytes = new AtomicLong();
    private final AtomicReference<String> refusal = new AtomicReference<>();

    private static MethodHandle find(String name) {
        return LINKER.defaultLookup().find(name)
                .map(addr -> LINKER.downcallHandle(addr,
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG),
                        Linker.Option.captureCallState("errno")))
                .orElse(null);
    }

    /** True where this platform's C library has {@code mlock}. */
    static boolean available() {
        return MLOCK != null && MUNLOCK != null;
    }

    @Override
    public Allocation allocate(long bytes, long alignment) {
        Arena arena = Arena.ofShared();
        try {
            MemorySegment raw = OrdinaryMemory.fresh(bytes, alignment, arena, bytes); // locked: every page resident
            String why = lock(raw);
            if (why == null) {
                lockedBytes.addAndGet(bytes);
                // Unlock before the arena frees the block, so the lock count stays right.
                MemorySegment tracked = raw.reinterpret(arena, s -> unlock(s, bytes));
                return new Allocation(tracked, arena, true);
            }
            refusal.compareAndSet(null, why);
            unlockedBytes.addAndGet(bytes);
            return new Allocation(raw, arena, false);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    private void unlock(MemorySegment segment, long bytes) {
        try (Arena a = Arena.ofConfined()) {
            // invokeExact needs the call site's type to match exactly, return type included: a
            // bare statement (void) would throw WrongMethodTypeException and never unlock.
            int ignored = (int) MUNLOCK.invokeExact(a.allocate(CALL_STATE), MemorySegment.ofAddress(segment.address()), bytes);
        } catch (Throwable t) {
            // munlock only fails for bad ranges, which an arena-owned block never is
        }
        lockedBytes.addAndGet(-bytes);
    }

    private static String lock(MemorySegment segment) {
        if (!available()) {
            return "this platform has no mlock";
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(CALL_STATE);
            int rc = (int) MLOCK.invokeExact(state, segment, segment.byteSize());
            if (rc == 0) {
                return null;
            }
            int errno = (int) ERRNO.get(state, 0L);
            return switch (errno) {
                case ENOMEM -> "mlock refused: over the locked-memory limit (ulimit -l; RLIMIT_MEMLOCK)";
                case EPERM -> "mlock refused: not permitted (needs CAP_IPC_LOCK or a higher ulimit -l)";
                default -> "mlock failed with errno " + errno;
            };
        } catch (Throwable t) {
            return "mlock could not be called: " + t;
        }
    }

    @Override
    public boolean isPageLocked() {
        return unlockedBytes.get() == 0;
    }

    /** Bytes currently locked by this source. */
    long lockedBytes() {
        return lockedBytes.get();
    }

    @Override
    public String describe() {
        String why = refusal.get();
        if (why == null) {
            return "memory locked with mlock (no CUDA: not registered with a device)";
        }
        return "ordinary memory (" + why + "); " + (lockedBytes.get() > 0 ? "some blocks are locked" : "none is locked");
    }
}
