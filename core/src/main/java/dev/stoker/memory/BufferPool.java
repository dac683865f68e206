package dev.stoker.memory;

import dev.stoker.metrics.Stage;
import dev.stoker.metrics.Stages;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;

/**
 * A bounded pool of aligned off-heap buffers, reused by size class: the memory of every batch.
 *
 * <p>The pool never holds more than its budget, counting buffers lent out and buffers kept for
 * reuse. When a request would pass the budget, idle buffers of other sizes are freed first; if
 * that is not enough, {@link #acquire} waits for a buffer to come back (back-pressure on the
 * workers) and, after the acquire timeout, fails with a {@link PoolExhaustedException} that names
 * the budget and the owners of the memory.
 *
 * <p>Buffers are 64-byte aligned, page-aligned from 64 KiB. {@link #close()} frees every idle
 * buffer at once; a buffer still lent out is reported as a leak and freed when it comes back,
 * never under its holder's feet.
 *
 * <pre>{@code
 * try (BufferPool pool = BufferPool.builder().budgetBytes(512L << 20).build()) {
 *     try (PooledBuffer images = pool.acquire(32 * 602_112, "batch 0")) {
 *         Tensor t = new Tensor(images.segment(), DType.F32, Shape.of(32, 3, 224, 224));
 *     }
 *     assert pool.reservedBytes() <= pool.budgetBytes();
 * }
 * }</pre>
 */
public final class BufferPool implements AutoCloseable {

    private final String name;
    private final long budget;
    private final Duration acquireTimeout;
    private final MemorySource source;
    private final boolean recordStacks;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition returned = lock.newCondition();
    private final Map<Long, ArrayDeque<Allocation>> idle = new HashMap<>();
    private final Set<PooledBuffer> lent = Collections.newSetFromMap(new IdentityHashMap<>());
    private long reserved;
    private long lentBytes;
    private long idleBytes;
    private long allocations;
    private long reuses;
    private long peakReserved;
    private boolean closed;

    private BufferPool(Builder b) {
        this.name = b.name;
        this.budget = b.budgetBytes;
        this.acquireTimeout = b.acquireTimeout;
        this.source = b.source;
        this.recordStacks = b.recordStacks;
        // No native linking here: the first block asks for it, in the background (AnonymousMemory.map).
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Lends a buffer of exactly {@code bytes} bytes; see {@link #acquire(long, String)}. */
    public PooledBuffer acquire(long bytes) {
        return acquire(bytes, "unnamed");
    }

    /**
     * Lends a buffer of exactly {@code bytes} bytes, reusing a returned one of the same size
     * class when there is one. Its contents are whatever the last holder left.
     *
     * @param owner who holds it, for the exhaustion message and the leak report (e.g. "batch 3")
     * @throws PoolExhaustedException when the budget stays full past the acquire timeout
     * @throws IllegalStateException when the pool is closed
     */
    public PooledBuffer acquire(long bytes, String owner) {
        return acquire(bytes, bytes, owner);
    }

    /**
     * Lends a buffer of exactly {@code bytes} bytes from a block of the size class that
     * {@code blockBytes} would have: for a short form of a request that recurs, so that it reuses
     * a block the pool keeps for the full one rather than taking fresh memory beside it. A loader's
     * last, short batch of an epoch asks so for a full batch's block (its budget allows those
     * anyway); on its own it would be a block of a class no other batch uses, new pages, at the very
     * moment the pool is fullest.
     *
     * @param blockBytes at least {@code bytes}; where a block of its class would pass the whole
     *                   budget, the buffer's own class is taken
     * @throws PoolExhaustedException when the budget stays full past the acquire timeout
     * @throws IllegalStateException when the pool is closed
     */
    public PooledBuffer acquire(long bytes, long blockBytes, String owner) {
        if (blockBytes < bytes) {
            throw new IllegalArgumentException("a block of " + blockBytes + " bytes cannot hold " + bytes);
        }
        long cls = SizeClass.of(blockBytes);
        long used = blockBytes; // what the block's buffers will mostly hold, for a fresh block's memory
        if (cls > budget) {
            cls = SizeClass.of(bytes); // the full block could never be had: ask for what is needed
            used = bytes;
        }
        if (cls > budget) {
            throw new PoolExhaustedException("pool '" + name + "': a buffer of " + Bytes.format(bytes)
                    + " (size class " + Bytes.format(cls) + ") is larger than the whole budget of "
                    + Bytes.format(budget) + "; raise the budget");
        }
        Throwable where = recordStacks ? new Throwable("acquired here by " + owner) : null;
        List<Allocation> toFree = new ArrayList<>();
        Allocation block;
        boolean fresh;
        lock.lock();
        try {
            long deadline = System.nanoTime() + acquireTimeout.toNanos();
            while (true) {
                ensureOpen();
                ArrayDeque<Allocation> q = idle.get(cls);
                if (q != null && !q.isEmpty()) {
                    block = q.pop();
                    idleBytes -= cls;
                    reuses++;
                    fresh = false;
                    break;
                }
                evictIdleUntilFits(cls, toFree);
                if (reserved + cls <= budget) {
                    reserved += cls; // reserve now, allocate outside the lock
                    peakReserved = Math.max(peakReserved, reserved);
                    block = null;
                    fresh = true;
                    break;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new PoolExhaustedException(exhaustedMessage(bytes));
                }
                long waitStart = Stages.start();
                try {
                    returned.awaitNanos(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new PoolExhaustedException("pool '" + name + "': interrupted while waiting for "
                            + Bytes.format(bytes) + " for " + owner);
                } finally {
                    Stages.end(Stage.MEMORY, waitStart); // back-pressure, seen in the loader's profile
                }
            }
            lentBytes += cls;
        } finally {
            lock.unlock();
            toFree.forEach(Allocation::close);
        }
        if (fresh) {
            try {
                block = source.allocate(cls, SizeClass.alignment(cls), used);
            } catch (RuntimeException | Error e) {
                lock.lock();
                try {
                    reserved -= cls;
                    lentBytes -= cls;
                    returned.signalAll();
                } finally {
                    lock.unlock();
                }
                throw e;
            }
        }
        PooledBuffer buffer = new PooledBuffer(this, block, cls, bytes, owner, where);
        boolean closedMeanwhile;
        lock.lock();
        try {
            // close() may have run while the block was allocated outside the lock: it neither freed
            // this block nor reported it, so hand nothing out from a closed pool; free it here
            closedMeanwhile = closed;
            if (closedMeanwhile) {
                reserved -= cls;
                lentBytes -= cls;
                returned.signalAll();
            } else {
                if (fresh) allocations++;
                lent.add(buffer);
            }
        } finally {
            lock.unlock();
        }
        if (closedMeanwhile) {
            block.close();
            throw new IllegalStateException("pool '" + name + "' was closed while " + owner + " waited for "
                    + Bytes.format(bytes));
        }
        return buffer;
    }

    /** Frees idle blocks of other classes, largest first, until {@code cls} more bytes fit. */
    private void evictIdleUntilFits(long cls, List<Allocation> toFree) {
        if (reserved + cls <= budget || idleBytes == 0) {
            return;
        }
        List<Long> classes = new ArrayList<>(idle.keySet());
        classes.sort(Comparator.reverseOrder());
        for (long c : classes) {
            ArrayDeque<Allocation> q = idle.get(c);
            while (!q.isEmpty() && reserved + cls > budget) {
                toFree.add(q.pop());
                idleBytes -= c;
                reserved -= c;
            }
        }
    }

    void giveBack(PooledBuffer buffer) {
        boolean free;
        lock.lock();
        try {
            lent.remove(buffer);
            lentBytes -= buffer.classBytes;
            free = closed;
            if (free) {
                reserved -= buffer.classBytes;
            } else {
                idle.computeIfAbsent(buffer.classBytes, k -> new ArrayDeque<>()).push(buffer.block);
                idleBytes += buffer.classBytes;
            }
            returned.signalAll();
        } finally {
            lock.unlock();
        }
        if (free) {
            buffer.block.close();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("pool '" + name + "' is closed");
        }
    }

    private String exhaustedMessage(long bytes) {
        Map<String, Long> byOwner = lent.stream()
                .collect(Collectors.groupingBy(PooledBuffer::owner, Collectors.summingLong(b -> b.classBytes)));
        String holders = byOwner.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(8)
                .map(e -> e.getKey() + " (" + Bytes.format(e.getValue()) + ")")
                .collect(Collectors.joining(", "));
        return "pool '" + name + "': no room for " + Bytes.format(bytes) + " after waiting "
                + acquireTimeout.toMillis() + " ms; the budget of " + Bytes.format(budget) + " is held by "
                + lent.size() + " buffers lent out (" + Bytes.format(lentBytes) + "): " + holders
                + (byOwner.size() > 8 ? ", ..." : "")
                + ". Close batches when done with them, or raise the budget.";
    }

    /**
     * One line per buffer lent out and not yet closed: the leak report. Empty when every buffer
     * came back. With {@link Builder#recordStacks(boolean)} each line ends with where it was acquired.
     */
    public List<String> leaks() {
        lock.lock();
        try {
            List<String> out = new ArrayList<>();
            for (PooledBuffer b : lent) {
                StringBuilder sb = new StringBuilder(Bytes.format(b.byteSize()) + " held by " + b.owner());
                if (b.acquiredAt != null) {
                    StackTraceElement[] st = b.acquiredAt.getStackTrace();
                    for (int i = 0; i < Math.min(st.length, 6); i++) sb.append("\n    at ").append(st[i]);
                }
                out.add(sb.toString());
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Frees every idle buffer. Buffers still lent out are logged as leaks and freed when they
     * are closed. Further {@link #acquire} calls fail.
     */
    @Override
    public void close() {
        List<Allocation> toFree = new ArrayList<>();
        List<String> leaked;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (ArrayDeque<Allocation> q : idle.values()) {
                toFree.addAll(q);
            }
            idle.clear();
            reserved -= idleBytes;
            idleBytes = 0;
            leaked = leaks();
            returned.signalAll();
        } finally {
            lock.unlock();
        }
        toFree.forEach(Allocation::close);
        if (!leaked.isEmpty()) {
            log().log(System.Logger.Level.WARNING, "pool '" + name + "' closed with " + leaked.size()
                    + " buffers never given back (they are freed when closed):\n  " + String.join("\n  ", leaked));
        }
    }

    public String name() {
        return name;
    }

    public long budgetBytes() {
        return budget;
    }

    public MemorySource source() {
        return source;
    }

    /** Bytes the pool holds from its source: lent out plus idle. Zero after close once all came back. */
    public long reservedBytes() {
        lock.lock();
        try {
            return reserved;
        } finally {
            lock.unlock();
        }
    }

    /** The most bytes the pool ever held at once. */
    public long peakReservedBytes() {
        lock.lock();
        try {
            return peakReserved;
        } finally {
            lock.unlock();
        }
    }

    /** Bytes (by size class) lent out and not yet given back. */
    public long lentBytes() {
        lock.lock();
        try {
            return lentBytes;
        } finally {
            lock.unlock();
        }
    }

    public int lentCount() {
        lock.lock();
        try {
            return lent.size();
        } finally {
            lock.unlock();
        }
    }

    /** Buffers kept for reuse. */
    public int idleCount() {
        lock.lock();
        try {
            int n = 0;
            for (Iterator<ArrayDeque<Allocation>> it = idle.values().iterator(); it.hasNext(); ) n += it.next().size();
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** How many times a block was taken from the source, and how many times one was reused. */
    public PoolStats stats() {
        lock.lock();
        try {
            return new PoolStats(allocations, reuses, reserved, peakReserved, lentBytes);
        } finally {
            lock.unlock();
        }
    }

    /** The budget rounded up as the pool rounds a request: what a buffer of {@code bytes} really costs. */
    public static long classBytes(long bytes) {
        return SizeClass.of(bytes);
    }

    /** Settings of a {@link BufferPool}. Defaults: 1 GiB budget, 60 s timeout, ordinary memory. */
    public static final class Builder {
        private String name = "buffers";
        private long budgetBytes = 1L << 30;
        private Duration acquireTimeout = Duration.ofSeconds(60);
        private MemorySource source = MemorySources.ordinary();
        private boolean recordStacks = Boolean.getBoolean("stoker.pool.recordStacks");

        private Builder() {}

        public Builder name(String name) {
            this.name = Objects.requireNonNull(name);
            return this;
        }

        public Builder budgetBytes(long bytes) {
            if (bytes <= 0) throw new IllegalArgumentException("the budget must be positive, not " + bytes);
            this.budgetBytes = bytes;
            return this;
        }

        public Builder acquireTimeout(Duration timeout) {
            if (timeout.isNegative()) throw new IllegalArgumentException("negative timeout " + timeout);
            this.acquireTimeout = timeout;
            return this;
        }

        public Builder source(MemorySource source) {
            this.source = Objects.requireNonNull(source);
            return this;
        }

        /**
         * Records where each buffer was acquired, for the leak report. Costs a stack trace per
         * acquire; also on with {@code -Dstoker.pool.recordStacks=true}.
         */
        public Builder recordStacks(boolean record) {
            this.recordStacks = record;
            return this;
        }

        public BufferPool build() {
            return new BufferPool(this);
        }
    }

    /**
     * The logger, looked up when there is something to say: a static logger field started the
     * JDK's logging (about 10 ms of a new JVM) when this class was loaded, on a first loader's path.
     */
    private static System.Logger log() {
        return System.getLogger(BufferPool.class.getName());
    }
}
