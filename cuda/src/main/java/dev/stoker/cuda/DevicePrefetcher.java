package dev.stoker.cuda;

import dev.stoker.loader.Batch;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.StageClock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Moves batches to the GPU ahead of the step that needs them: FFCV's ring of slots, each with its
 * own copy stream and event.
 *
 * <p>A feeder thread takes host batches from the loader as soon as they are ready and queues each
 * one's copy into a free slot's device buffers on that slot's stream. {@link #next()} hands out
 * the oldest copied slot after making the consumer stream wait (on the GPU, not the host) for
 * that slot's copy. When the consumer lets go of a batch, by closing it or by asking for the next
 * one, the slot records an event on the consumer stream; the next copy into that slot waits for
 * it, so device memory is never overwritten while a step may still read it. A host batch goes
 * back to its pool only once its copy has finished. Device buffers are allocated once per slot and
 * reused.
 *
 * <p>Batches whose memory is page-locked (a pool over {@link PinnedMemory}) copy asynchronously at
 * full speed; from ordinary memory CUDA stages the copy through its own pinned buffer and the
 * feeder thread waits for it.
 *
 * <pre>{@code
 * try (DataLoader<Sample> loader = DataLoader.builder(dataset).batchSize(64).pool(pinnedPool).build();
 *      DevicePrefetcher gpu = DevicePrefetcher.builder(Cuda.require(), loader.iterator()).build()) {
 *     while (gpu.hasNext()) {
 *         try (DeviceBatch b = gpu.next()) {
 *             step(b.tensor("image").pointer(), gpu.consumerStream());
 *         }
 *     }
 * }
 * }</pre>
 */
public final class DevicePrefetcher implements Iterator<DeviceBatch>, AutoCloseable {
    private static final Object END = new Object();

    private final CudaRuntime cuda;
    private final Iterator<Batch> source;
    private final int device;
    private final long consumerStream;
    private final java.util.function.LongConsumer beforeEachCopy;
    private final StageClock clock; // null: the copies are not timed as a stage
    private final DeviceStage stage; // null: the consumer gets the copy as it is
    private final List<PrefetchSlot> slots = new ArrayList<>();
    private final BlockingQueue<PrefetchSlot> free;
    /** Copied slots in order, then {@link #END} or the feeder's exception. */
    private final BlockingQueue<Object> ready;
    private final Thread feeder;
    private final Object reclaimLock = new Object();
    private volatile boolean closing;
    private final java.util.concurrent.atomic.AtomicLong copies = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong copyIssueNanos = new java.util.concurrent.atomic.AtomicLong();
    private long consumerWaitNanos;
    private Object head;
    private DeviceBatch lastHandedOut;
    private volatile boolean closed;
    private final boolean releaseOnHost;

    private DevicePrefetcher(Builder b) {
        this.cuda = b.cuda;
        this.source = b.source;
        this.device = b.device;
        this.consumerStream = b.consumerStream;
        this.beforeEachCopy = b.beforeEachCopy;
        this.clock = b.clock;
        this.stage = b.stage;
        this.releaseOnHost = waitsOnHost(b.releaseOnHost, stage);
        cuda.setDevice(device);
        this.free = new ArrayBlockingQueue<>(b.slots);
        this.ready = new ArrayBlockingQueue<>(b.slots + 1);
        for (int i = 0; i < b.slots; i++) {
            PrefetchSlot s = new PrefetchSlot(i, cuda, device);
            slots.add(s);
            free.add(s);
        }
        this.feeder = Thread.ofPlatform().daemon().name("stoker-device-prefetch").unstarted(this::feed);
        feeder.start();
    }

    /** Starts describing a prefetcher over {@code source}, usually a loader's {@code iterator()}. */
    public static Builder builder(CudaRuntime cuda, Iterator<Batch> source) {
        return new Builder(cuda, source);
    }

    private void feed() {
        try {
            cuda.setDevice(device);
            while (!closing && source.hasNext()) {
                Batch batch = source.next();
                PrefetchSlot slot = takeFreeSlot(batch);
                if (slot == null) return;
                if (releaseOnHost) slot.released.synchronize();
                Object mirrored;
                synchronized (reclaimLock) {
                    try {
                        slot.reclaimHost(true); // its previous copy was long consumed; make sure it finished
                        beforeEachCopy.accept(slot.stream.handle());
                        long t0 = System.nanoTime();
                        mirrored = slot.issueCopy(batch, stage);
                        long t1 = System.nanoTime();
                        copyIssueNanos.addAndGet(t1 - t0);
                        copies.incrementAndGet();
                        if (clock != null) { // where the copy is issued: the host's part of it
                            clock.record(Stage.COPY, t0, t1, batch.epoch(), batch.index());
                        }
                    } catch (RuntimeException | Error e) {
                        batch.close();
                        throw e;
                    }
                }
                long[] indices = batch.indices();
                long epoch = batch.epoch();
                long index = batch.index();
                slot.current = new DeviceBatch(epoch, index, indices, mirrored, () -> release(slot));
                ready.put(slot);
            }
            ready.put(END);
        } catch (InterruptedException e) {
            // closing
        } catch (Throwable t) {
            // Batches already copied are still delivered; the error comes at the batch that failed.
            ready.offer(t);
        }
    }

    /** The builder's choice where it made one ({@code explicit} not null), else the stage's preference. */
    static boolean waitsOnHost(Boolean explicit, DeviceStage stage) {
        return explicit != null ? explicit : stage != null && stage.waitsForSlotOnHost();
    }

    /** A slot the consumer has let go of, or null when closing; {@code batch} is given back then. */
    private PrefetchSlot takeFreeSlot(Batch batch) {
        try {
            while (!closing) {
                reclaimFinished();
                PrefetchSlot s = free.poll(1, TimeUnit.MILLISECONDS);
                if (s != null) return s;
            }
        } catch (InterruptedException e) {
            // closing: fall through
        }
        batch.close();
        return null;
    }

    /** Gives back the host batches whose copies have finished, without waiting for the others. */
    private void reclaimFinished() {
        synchronized (reclaimLock) {
            for (PrefetchSlot s : slots) {
                s.reclaimHost(false);
            }
        }
    }

    /** Called when the consumer lets go of a slot's batch. */
    private void release(PrefetchSlot slot) {
        if (closed) return; // the ring is gone; nothing to hand back
        slot.released.record(consumerStream);
        slot.current = null;
        free.add(slot);
    }

    @Override
    public boolean hasNext() {
        return peek() != END;
    }

    /**
     * The next batch on the device. The consumer stream is made to wait for its copy; the host
     * only waits when the copy has not even been queued yet (the loader is behind).
     */
    @Override
    public DeviceBatch next() {
        Object h = peek();
        if (h == END) throw new NoSuchElementException("the loader has no more batches this epoch");
        head = null;
        PrefetchSlot slot = (PrefetchSlot) h;
        cuda.streamWaitEvent(consumerStream, slot.copied.handle());
        lastHandedOut = slot.current;
        return slot.current;
    }

    private Object peek() {
        if (closed) throw new IllegalStateException("the device prefetcher is closed");
        if (head != null) return head;
        if (lastHandedOut != null) {
            lastHandedOut.close(); // asking for the next batch lets go of the last one
            lastHandedOut = null;
        }
        long t0 = System.nanoTime();
        try {
            Object h;
            do {
                reclaimFinished();
                h = ready.poll(1, TimeUnit.MILLISECONDS);
            } while (h == null);
            consumerWaitNanos += System.nanoTime() - t0;
            if (h instanceof Throwable t) {
                head = END;
                throw new IllegalStateException("loading or copying a batch for the device failed: " + t.getMessage(), t);
            }
            head = h;
            return h;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the next device batch", e);
        }
    }

    /** The stream that waits for each batch's copy: the one the training step runs on. */
    public long consumerStream() {
        return consumerStream;
    }

    public int slotCount() {
        return slots.size();
    }

    /**
     * Counters so far.
     *
     * @param copies             batches whose copy was queued
     * @param copyIssueNanos     feeder time spent queuing copies: the copy path's CPU cost (with
     *                           ordinary memory it includes CUDA's staging, which blocks)
     * @param consumerWaitNanos  time {@link #next()} waited for a batch: the loader was behind
     */
    public record Stats(long copies, long copyIssueNanos, long consumerWaitNanos) {}

    public Stats stats() {
        return new Stats(copies.get(), copyIssueNanos.get(), consumerWaitNanos);
    }

    /** Device bytes held by the ring's buffers. */
    public long deviceBytes() {
        long n = 0;
        for (PrefetchSlot s : slots) n += s.deviceBytes();
        return n;
    }

    /**
     * Stops the feeder, waits for queued copies, gives every host batch back to its pool and frees
     * the device buffers, streams and events. Batches handed out become invalid. Safe from any
     * thread; a second close waits for the first, so no device buffer is freed twice.
     */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        closing = true;
        feeder.interrupt();
        try {
            feeder.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        cuda.setDevice(device);
        cuda.streamSynchronize(consumerStream);
        for (PrefetchSlot s : slots) s.close();
        if (source instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the loader's iterator failed", e);
            }
        }
    }

    /** Settings of a {@link DevicePrefetcher}. */
    public static final class Builder {
        private final CudaRuntime cuda;
        private final Iterator<Batch> source;
        private int slots = 3;
        private int device;
        private long consumerStream;
        private java.util.function.LongConsumer beforeEachCopy = stream -> {};
        private StageClock clock;
        private DeviceStage stage;
        private Boolean releaseOnHost; // null: as the stage prefers

        private Builder(CudaRuntime cuda, Iterator<Batch> source) {
            this.cuda = Objects.requireNonNull(cuda, "cuda");
            this.source = Objects.requireNonNull(source, "source");
        }

        /** Batches held on the device at once: the one in use plus those copied ahead. Default 3. */
        public Builder slots(int n) {
            if (n < 2) throw new IllegalArgumentException("the ring needs at least 2 slots to overlap, not " + n);
            this.slots = n;
            return this;
        }

        public Builder device(int ordinal) {
            this.device = ordinal;
            return this;
        }

        /** The stream the training step runs on ({@code cudaStream_t}); 0, the default stream, by default. */
        public Builder consumerStream(long handle) {
            this.consumerStream = handle;
            return this;
        }

        /**
         * Times each batch's copy as {@link Stage#COPY} on {@code clock}, usually the loader's
         * {@code stageClock()}, so that its profile, trace and report show the copy beside the
         * loading: the host's part, issuing the copy (for pageable memory that includes CUDA's
         * staging through its own pinned buffer); the device's part overlaps the step.
         */
        public Builder clock(StageClock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Work to queue on each slot's stream after its copy, overlapping the step as the copy
         * does; the consumer gets what it returns. {@link Stats#copyIssueNanos()} then includes
         * the host's part of it.
         */
        public Builder stage(DeviceStage stage) {
            this.stage = Objects.requireNonNull(stage, "stage");
            return this;
        }

        /**
         * Whether the feeder waits on the host until the GPU has finished with a slot's last batch
         * before refilling it (by default, where the stage asks for it, {@link
         * DeviceStage#waitsForSlotOnHost()}; otherwise the slot's stream waits on the GPU, and the
         * feeder goes on). Waiting on the host holds one batch fewer ahead, but leaves no stream with
         * work queued behind the step: with more streams than the GPU has hardware queues
         * ({@code CUDA_DEVICE_MAX_CONNECTIONS}, 8 by default) such work can hold up a stage's
         * unrelated streams that share its queue.
         */
        public Builder releaseOnHost(boolean wait) {
            this.releaseOnHost = wait;
            return this;
        }

        /** Tests: queue work (a slow kernel) on a slot's copy stream before each copy. */
        Builder beforeEachCopy(java.util.function.LongConsumer onCopyStream) {
            this.beforeEachCopy = onCopyStream;
            return this;
        }

        public DevicePrefetcher build() {
            return new DevicePrefetcher(this);
        }
    }
}
