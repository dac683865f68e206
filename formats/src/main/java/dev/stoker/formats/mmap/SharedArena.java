package dev.stoker.formats.mmap;

import java.lang.foreign.Arena;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One shared {@link Arena} for a group of memory-mapped files, closed when the last of them is
 * closed: Lucene's {@code RefCountedSharedArena}. Closing a shared arena is expensive (the JVM
 * must make sure no thread is inside a segment of it at that moment), so a dataset of many files
 * pays it once per group instead of once per file.
 *
 * <p>The creator holds the first reference and gives it up with {@link #close()}; every
 * {@link MappedFile} opened in the group holds one more until it is closed. Thread-safe.
 *
 * <pre>{@code
 * try (SharedArena group = SharedArena.create("shards")) {
 *     MappedFile a = MappedFile.open(pathA, group);
 *     MappedFile b = MappedFile.open(pathB, group);
 *     ...
 *     a.close(); b.close();
 * } // the arena closes here, or when the last file closes, whichever is later
 * }</pre>
 */
public final class SharedArena implements AutoCloseable {
    private final String name;
    private final Arena arena = Arena.ofShared();
    /** References held: the creator's and one per open file; 0 once closed. */
    private final AtomicInteger references = new AtomicInteger(1);
    private volatile boolean creatorClosed;

    private SharedArena(String name) {
        this.name = name;
    }

    /** A new group, named for error messages. */
    public static SharedArena create(String name) {
        return new SharedArena(name);
    }

    /** The arena; segments from it stay valid until the last reference is released. */
    Arena arena() {
        return arena;
    }

    /** Takes one more reference. @throws IllegalStateException when the arena has already closed */
    void acquire() {
        while (true) {
            int n = references.get();
            if (n == 0) {
                throw new IllegalStateException("the shared arena '" + name + "' is closed");
            }
            if (references.compareAndSet(n, n + 1)) {
                return;
            }
        }
    }

    /** Gives one reference back; the last one closes the arena. */
    void release() {
        if (references.decrementAndGet() == 0) {
            arena.close();
        }
    }

    /** Whether the arena is still open. */
    public boolean isOpen() {
        return references.get() > 0;
    }

    /** Gives up the creator's reference (once; later calls do nothing). */
    @Override
    public synchronized void close() {
        if (!creatorClosed) {
            creatorClosed = true;
            release();
        }
    }

    @Override
    public String toString() {
        return "SharedArena(" + name + ", " + references.get() + " references)";
    }
}
