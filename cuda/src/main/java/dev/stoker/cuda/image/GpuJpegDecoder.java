package dev.stoker.cuda.image;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.stoker.cuda.CudaEvent;
import dev.stoker.cuda.CudaException;
import dev.stoker.cuda.CudaRuntime;
import dev.stoker.cuda.CudaStream;
import dev.stoker.cuda.DeviceBuffer;
import dev.stoker.cuda.DeviceStage;
import dev.stoker.cuda.DeviceTensor;
import dev.stoker.cuda.PtxModule;
import dev.stoker.cuda.lib.CudaScratchMemory;
import dev.stoker.cuda.lib.NvJpeg;
import dev.stoker.cuda.lib.NvJpegAllocators;
import dev.stoker.cuda.lib.ScratchPool;
import dev.stoker.loader.Batch;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.decode.ImageDecodeException;
import dev.stoker.vision.transform.Normalize;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToIntFunction;

/**
 * The GPU's half of decoding JPEGs on the GPU: a {@link DeviceStage} for the
 * {@link dev.stoker.cuda.DevicePrefetcher} that decodes a {@link GpuJpegDataset}'s batch with
 * nvJPEG's batched decoder into device memory, then resamples (PIL's antialiased bilinear, bit for
 * bit the CPU path's arithmetic), flips and normalizes it with Stoker's kernel into an
 * {@code (n, 3, H, W)} tensor, overlapping the step: the decode on a stream of the slot's own, the
 * resample on the slot's stream once the consumer has let go of the slot's previous batch.
 *
 * <p>Overlapping the step takes the engines' buffers sized ahead ({@link Builder#preallocate}), no
 * pipelining inside the engines ({@link Builder#pipelining}) and the prefetcher waiting for a
 * slot on the host ({@link #waitsForSlotOnHost()}): without them the decode call returned only once
 * the running step had ended (docs/cuda.md has the figures).
 *
 * <p>The JPEG engines of an A100, H100 or H200 ({@link NvJpeg#BACKEND_HARDWARE}) are used where
 * the GPU has them, nvJPEG's default backend (Huffman decoding on this thread, the rest on the GPU)
 * elsewhere. A batch the batched decoder refuses (a progressive JPEG on the engines, say) is
 * decoded image by image with the default backend; an image that fails there too is an
 * {@link ImageDecodeException} naming its file. See {@link GpuJpegDataset} for the whole loop.
 *
 * <p>The consumer gets a map: {@code image} (a {@link DeviceTensor}, f32 normalized or u8 pixels)
 * and {@code label}.
 */
public final class GpuJpegDecoder implements DeviceStage, AutoCloseable {
    private static final long ALIGN = 256;
    /** nvJPEG decodes at most 65,535 x 65,535 (JPEG's own limit); this bounds one image's device bytes. */
    private static final long MAX_PIXELS = 1L << 28;
    private static final int BLOCK_X = 32;
    private static final int BLOCK_Y = 8;
    /** Beyond this the scratch pools free blocks the GPU is done with: room for several batches' decoding. */
    private static final long SCRATCH_LIMIT = 2L << 30;

    private final CudaRuntime cuda;
    private final NvJpeg nv;
    private final GpuJpegDataset<?> dataset;
    private final int device;
    private final int outH;
    private final int outW;
    private final boolean pixels;
    private final PtxModule module;
    private final long kernel;
    private final DeviceBuffer norm;
    private final NvJpegAllocators allocators; // null: CUDA's allocators
    private final int flags;
    private final long handle;
    private final int backend;
    private long fallbackHandle;
    private long batches;
    private long decodeCallNanos;
    private final Arena arena = Arena.ofShared();
    private final boolean preallocate;
    private final List<SlotState> slots = new ArrayList<>();
    private long fallbackBatches;
    private boolean closed;

    private GpuJpegDecoder(Builder b) {
        this.cuda = b.cuda;
        this.nv = NvJpeg.library().orElseThrow(() -> new IllegalStateException("GPU JPEG decoding needs nvJPEG: "
                + NvJpeg.status()));
        this.dataset = b.dataset;
        this.device = b.device;
        Shape shape = dataset.pipeline().outputShape();
        this.outH = (int) shape.dim(1);
        this.outW = (int) shape.dim(2);
        this.pixels = b.pixels;
        cuda.setDevice(device);
        this.module = PtxModule.load(cuda, GpuJpegDecoder.class, "image_kernels.ptx");
        this.kernel = module.kernel(pixels ? "stoker_resample_u8" : "stoker_resample_f32");
        Normalize n = dataset.pipeline().normalize();
        this.norm = DeviceBuffer.allocate(cuda, 6 * Float.BYTES);
        MemorySegment host = arena.allocate(6 * Float.BYTES);
        for (int c = 0; c < 3; c++) {
            host.setAtIndex(JAVA_FLOAT, c, n.mean()[c]);
            host.setAtIndex(JAVA_FLOAT, 3 + c, n.std()[c]);
        }
        cuda.memcpy(norm.pointer(), host.address(), 6 * Float.BYTES, CudaRuntime.MEMCPY_HOST_TO_DEVICE);
        this.allocators = b.scratchPools && nv.takesAllocators()
                ? new NvJpegAllocators(new ScratchPool("nvJPEG device scratch", CudaScratchMemory.device(cuda),
                        SCRATCH_LIMIT), new ScratchPool("nvJPEG pinned scratch", CudaScratchMemory.pinned(cuda),
                        SCRATCH_LIMIT))
                : null;
        this.flags = b.pipelining ? 0 : NvJpeg.FLAG_HW_DECODE_NO_PIPELINE;
        this.preallocate = b.preallocate;
        long[] made = createHandle(b.hardware);
        this.handle = made[0];
        this.backend = (int) made[1];
    }

    /** Starts describing a decoder for {@code dataset}'s batches; the output size and normalize are its pipeline's. */
    public static Builder builder(CudaRuntime cuda, GpuJpegDataset<?> dataset) {
        return new Builder(cuda, dataset);
    }

    /** The hardware backend where asked and present, else the default one: {handle, backend}. */
    private long[] createHandle(boolean hardware) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            if (hardware && newHandle(NvJpeg.BACKEND_HARDWARE, out) == 0) {
                return new long[] {out.get(JAVA_LONG, 0), NvJpeg.BACKEND_HARDWARE};
            }
        }
        return new long[] {defaultHandle(), NvJpeg.BACKEND_DEFAULT};
    }

    /** A handle on {@code backend}, its scratch memory from Stoker's pools where the library takes them. */
    private int newHandle(int backend, MemorySegment out) {
        return allocators != null ? nv.create(backend, allocators, flags, out) : nv.create(backend, flags, out);
    }

    private long defaultHandle() {
        return created(out -> newHandle(NvJpeg.BACKEND_DEFAULT, out), "nvjpegCreateEx(default backend)");
    }

    /** Calls an nvJPEG function that writes a handle to its last argument, and returns the handle. */
    private long created(ToIntFunction<MemorySegment> call, String what) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            check(call.applyAsInt(out), what);
            return out.get(JAVA_LONG, 0);
        }
    }

    /** The default backend's handle, for images one by one: made at its first use. */
    private long fallbackHandle() {
        if (fallbackHandle == 0) {
            fallbackHandle = defaultHandle();
        }
        return fallbackHandle;
    }

    /** Which nvJPEG backend decodes: "hardware" (the JPEG engines) or "default" (CPU Huffman + GPU). */
    public String backend() {
        return backend == NvJpeg.BACKEND_HARDWARE ? "hardware" : "default";
    }

    /**
     * What the decoder has done so far.
     *
     * @param batches            batches decoded
     * @param fallbackBatches    of them, batches decoded image by image
     * @param decodeCallNanos    the feeder's time inside nvJPEG's decode calls, all batches
     * @param scratchAllocations blocks of scratch memory made for nvJPEG (device and pinned); -1 with CUDA's allocators
     * @param scratchReuses      nvJPEG's requests served from blocks it gave back before; -1 with CUDA's allocators
     */
    public record Stats(long batches, long fallbackBatches, long decodeCallNanos, long scratchAllocations,
                        long scratchReuses) {}

    public synchronized Stats stats() {
        return new Stats(batches, fallbackBatches, decodeCallNanos,
                allocators == null ? -1 : allocators.device().allocations() + allocators.pinned().allocations(),
                allocators == null ? -1 : allocators.device().reuses() + allocators.pinned().reuses());
    }

    /** The engines' decode call waits for GPU work queued ahead of it: see {@link DeviceStage#waitsForSlotOnHost()}. */
    @Override
    public boolean waitsForSlotOnHost() {
        return true;
    }

    @Override
    public boolean copies(Object field) {
        // the bitstreams are read from the pinned host batch, and the plan is rewritten on the host
        return GpuJpegDataset.LABEL.equals(field);
    }

    @Override
    public Object apply(int slot, Batch host, Object copied, long stream) {
        if (!(host.data() instanceof Map<?, ?> data) || !(data.get(GpuJpegDataset.JPEG) instanceof Tensor jpeg)
                || !(data.get(GpuJpegDataset.JPEG_BYTES) instanceof Tensor lengths)
                || !(data.get(GpuJpegDataset.GEOMETRY) instanceof Tensor geometry)) {
            throw new IllegalArgumentException("batch " + host.index() + " is not a GpuJpegDataset batch (jpeg,"
                    + " jpeg_bytes, geometry, label): " + host.data());
        }
        int n = (int) jpeg.shape().dim(0);
        long rowBytes = jpeg.shape().dim(1);
        SlotState s = slot(slot, n);
        MemorySegment bitstreams = jpeg.segment();
        MemorySegment plans = geometry.segment();
        long[] indices = host.indices();

        // Place each decoded image in the slot's device memory, as the plans' sizes say.
        long total = 0;
        long[] offsets = new long[n];
        long[] widths = new long[n];
        long[] heights = new long[n];
        for (int i = 0; i < n; i++) {
            long first = (long) i * GpuSampleRecord.WORDS;
            long w = GpuSampleRecord.get(plans, first, GpuSampleRecord.SOURCE_WIDTH);
            long h = GpuSampleRecord.get(plans, first, GpuSampleRecord.SOURCE_HEIGHT);
            long len = lengths.getLong(i);
            if (w < 1 || h < 1 || w * h > MAX_PIXELS || len < 1 || len > rowBytes) {
                throw new ImageDecodeException(dataset.describe(indices[i]), "a plan of " + w + "x" + h + " pixels and "
                        + len + " bytes, which no JPEG a batch row of " + rowBytes + " bytes holds has");
            }
            offsets[i] = total;
            widths[i] = w;
            heights[i] = h;
            total += align(w * 3 * h);
        }
        // The decode goes on a stream of the slot's own, which waits only for the last resample out of
        // this slot's decode buffer, not for the consumer to let go of the slot.
        long decodeStream = s.decodeStream.handle();
        s.decodeStream.waitFor(s.resampled);
        long decoded = s.decoded(total, decodeStream);

        MemorySegment info = s.info;
        for (int i = 0; i < n; i++) {
            long first = (long) i * GpuSampleRecord.WORDS;
            long w = widths[i];
            long h = heights[i];
            MemorySegment bits = bitstreams.asSlice(i * rowBytes, lengths.getLong(i));
            // nvJPEG's own reading of the header must agree with the plan the worker drew from
            int rc = nv.imageInfo(handle, bits, info);
            if (rc != 0 || info.getAtIndex(JAVA_INT, 2) != w || info.getAtIndex(JAVA_INT, 6) != h) {
                throw new ImageDecodeException(dataset.describe(indices[i]), rc != 0
                        ? "nvJPEG cannot read its header (" + NvJpeg.statusName(rc) + ")"
                        : "nvJPEG reads it as " + info.getAtIndex(JAVA_INT, 2) + "x" + info.getAtIndex(JAVA_INT, 6)
                                + " pixels, the CPU's header reader as " + w + "x" + h);
            }
            s.data.setAtIndex(JAVA_LONG, i, bits.address());
            s.lengths.setAtIndex(JAVA_LONG, i, bits.byteSize());
            MemorySegment image = s.images.asSlice(i * NvJpeg.IMAGE_BYTES, NvJpeg.IMAGE_BYTES);
            image.fill((byte) 0);
            image.set(JAVA_LONG, 0, decoded + offsets[i]);
            image.set(JAVA_LONG, 32, w * 3);
            MemorySegment.copy(plans, first * 8, s.recordsHost, first * 8, GpuSampleRecord.WORDS * 8L);
            GpuSampleRecord.set(s.recordsHost, first, GpuSampleRecord.SOURCE, decoded + offsets[i]);
            GpuSampleRecord.set(s.recordsHost, first, GpuSampleRecord.PITCH, w * 3);
        }

        if (s.initializedFor != n) {
            check(nv.batchedInitialize(handle, s.state, n, 1, NvJpeg.OUTPUT_RGBI), "nvjpegDecodeBatchedInitialize");
            s.initializedFor = n;
            s.preallocatedW = 0;
            s.preallocatedH = 0;
        }
        if (preallocate && backend == NvJpeg.BACKEND_HARDWARE) preallocate(s, n, widths, heights);
        long t0 = System.nanoTime();
        int rc = nv.decodeBatched(handle, s.state, s.data, s.lengths, s.images, decodeStream);
        if (rc != 0) {
            fallbackBatches++;
            decodeOneByOne(s, n, indices, decodeStream);
        }
        decodeCallNanos += System.nanoTime() - t0;
        batches++;
        s.decodedEvent.record(decodeStream);
        cuda.streamWaitEvent(stream, s.decodedEvent.handle());

        cuda.memcpyAsync(s.recordsDev.pointer(), s.recordsHost.address(), n * GpuSampleRecord.WORDS * 8L,
                CudaRuntime.MEMCPY_HOST_TO_DEVICE, stream);
        long out = s.output(n, stream);
        int[] grid = {(outW + BLOCK_X - 1) / BLOCK_X, (outH + BLOCK_Y - 1) / BLOCK_Y, n};
        int[] block = {BLOCK_X, BLOCK_Y, 1};
        if (pixels) {
            module.launch(kernel, grid, block, stream, s.recordsDev.pointer(), out, outH, outW);
        } else {
            module.launch(kernel, grid, block, stream, s.recordsDev.pointer(), out, outH, outW, norm.pointer());
        }
        s.resampled.record(stream);
        Map<Object, Object> result = new LinkedHashMap<>();
        result.put("image", new DeviceTensor(out, pixels ? DType.U8 : DType.F32, Shape.of(n, 3, outH, outW), device));
        if (copied instanceof Map<?, ?> c && c.get(GpuJpegDataset.LABEL) != null) {
            result.put(GpuJpegDataset.LABEL, c.get(GpuJpegDataset.LABEL));
        }
        return result;
    }

    /**
     * Sizes the engines' buffers for this batch's largest image, with room to grow, whenever a
     * batch outgrows them: otherwise the decode call reallocates them, and freeing device memory
     * waits for the whole GPU, the running step included.
     */
    private void preallocate(SlotState s, int n, long[] widths, long[] heights) {
        long w = 0;
        long h = 0;
        for (int i = 0; i < n; i++) {
            w = Math.max(w, widths[i]);
            h = Math.max(h, heights[i]);
        }
        if (w <= s.preallocatedW && h <= s.preallocatedH) return;
        int pw = (int) Math.min(65_535, Math.max(w, s.preallocatedW) * 5 / 4);
        int ph = (int) Math.min(65_535, Math.max(h, s.preallocatedH) * 5 / 4);
        int rc = nv.preAllocate(handle, s.state, n, pw, ph, NvJpeg.CSS_444, NvJpeg.OUTPUT_RGBI);
        if (rc == 0) {
            s.preallocatedW = pw;
            s.preallocatedH = ph;
        } else {
            s.preallocatedW = Long.MAX_VALUE; // the library cannot: decode as it would anyway, and do not ask again
            s.preallocatedH = Long.MAX_VALUE;
        }
    }

    /** An image decoded on its own and copied back: 8-bit RGB rows, packed. */
    public record HostImage(MemorySegment rgb, int width, int height) {}

    /**
     * Decodes one JPEG with nvJPEG's default backend and copies its pixels back to {@code arena}:
     * what the GPU path resamples, to compare with a CPU decoder. Synchronous, and not while a
     * prefetcher runs this decoder.
     */
    public HostImage decodeToHost(MemorySegment jpeg, String source, Arena arena) {
        cuda.setDevice(device);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment bits = a.allocate(jpeg.byteSize(), 8);
            MemorySegment.copy(jpeg, 0, bits, 0, jpeg.byteSize());
            MemorySegment info = a.allocate(10L * Integer.BYTES);
            int rc = nv.imageInfo(handle, bits, info);
            if (rc != 0) {
                throw new ImageDecodeException(source, "nvJPEG cannot read its header (" + NvJpeg.statusName(rc) + ")");
            }
            int w = info.getAtIndex(JAVA_INT, 2);
            int h = info.getAtIndex(JAVA_INT, 6);
            if (w < 1 || h < 1 || (long) w * h > MAX_PIXELS) {
                throw new ImageDecodeException(source, "nvJPEG reads a size of " + w + "x" + h);
            }
            long bytes = 3L * w * h;
            long fallback = fallbackHandle();
            long state = created(out -> nv.stateCreate(fallback, out), "nvjpegJpegStateCreate");
            try (DeviceBuffer pixels = DeviceBuffer.allocate(cuda, bytes)) {
                MemorySegment image = a.allocate(NvJpeg.IMAGE_BYTES, 8);
                image.set(JAVA_LONG, 0, pixels.pointer());
                image.set(JAVA_LONG, 32, 3L * w);
                rc = nv.decode(fallback, state, bits, NvJpeg.OUTPUT_RGBI, image, 0);
                if (rc != 0) {
                    throw new ImageDecodeException(source, "nvJPEG cannot decode it (" + NvJpeg.statusName(rc) + ")");
                }
                cuda.deviceSynchronize();
                MemorySegment host = arena.allocate(bytes, 8);
                cuda.memcpy(host.address(), pixels.pointer(), bytes, CudaRuntime.MEMCPY_DEVICE_TO_HOST);
                return new HostImage(host, w, h);
            } finally {
                nv.stateDestroy(state);
            }
        }
    }

    /** The batched decoder refused the batch: each image on the default backend, naming the one that fails. */
    private void decodeOneByOne(SlotState s, int n, long[] indices, long stream) {
        long fallback = fallbackHandle();
        long state = s.fallbackState(fallback);
        for (int i = 0; i < n; i++) {
            MemorySegment bits = MemorySegment.ofAddress(s.data.getAtIndex(JAVA_LONG, i))
                    .reinterpret(s.lengths.getAtIndex(JAVA_LONG, i));
            MemorySegment image = s.images.asSlice(i * NvJpeg.IMAGE_BYTES, NvJpeg.IMAGE_BYTES);
            int rc = nv.decode(fallback, state, bits, NvJpeg.OUTPUT_RGBI, image, stream);
            if (rc != 0) {
                throw new ImageDecodeException(dataset.describe(indices[i]), "nvJPEG cannot decode it ("
                        + NvJpeg.statusName(rc) + ")");
            }
        }
    }

    private SlotState slot(int slot, int n) {
        while (slots.size() <= slot) {
            slots.add(null);
        }
        SlotState s = slots.get(slot);
        if (s == null) {
            s = new SlotState();
            slots.set(slot, s);
        }
        s.ensureHost(n);
        return s;
    }

    private static long align(long bytes) {
        return (bytes + ALIGN - 1) / ALIGN * ALIGN;
    }

    private void check(int status, String call) {
        if (status != 0) {
            Throwable why = allocators == null ? null : allocators.lastFailure();
            throw new CudaException(call + " failed: " + NvJpeg.statusName(status)
                    + (status == NvJpeg.STATUS_ALLOCATOR_FAILURE && why != null ? " (" + why.getMessage() + ")" : ""),
                    status);
        }
    }

    /** Device bytes held for decoded images and outputs, all slots together. */
    public long deviceBytes() {
        long b = norm.byteSize();
        for (SlotState s : slots) {
            if (s != null) b += s.deviceBytes();
        }
        return b;
    }

    /**
     * Frees the device memory and nvJPEG's handles. Close the prefetcher first: its slots' work
     * must have finished.
     */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        cuda.setDevice(device);
        cuda.deviceSynchronize();
        for (SlotState s : slots) {
            if (s != null) s.close();
        }
        if (fallbackHandle != 0) nv.destroy(fallbackHandle);
        nv.destroy(handle);
        if (allocators != null) allocators.close();
        norm.close();
        module.close();
        arena.close();
    }

    /** One prefetcher slot's memory: reused batch after batch, grown (never per batch) when outgrown. */
    private final class SlotState {
        final long state;
        final CudaStream decodeStream = new CudaStream(cuda);
        final CudaEvent decodedEvent = new CudaEvent(cuda, false);
        final CudaEvent resampled = new CudaEvent(cuda, false);
        long fallbackState;
        int initializedFor = -1;
        long preallocatedW;
        long preallocatedH;
        int capacity;
        MemorySegment data;
        MemorySegment lengths;
        MemorySegment images;
        MemorySegment recordsHost; // page-locked, so that its copy is asynchronous
        DeviceBuffer recordsDev;
        final MemorySegment info = arena.allocate(10L * Integer.BYTES);
        DeviceBuffer decoded;
        DeviceBuffer output;

        SlotState() {
            state = created(out -> nv.stateCreate(handle, out), "nvjpegJpegStateCreate");
        }

        void ensureHost(int n) {
            if (n <= capacity) return;
            data = arena.allocate(8L * n, 8);
            lengths = arena.allocate(8L * n, 8);
            images = arena.allocate(NvJpeg.IMAGE_BYTES * n, 8);
            if (recordsHost != null) cuda.freeHost(recordsHost.address());
            long bytes = 8L * GpuSampleRecord.WORDS * n;
            recordsHost = MemorySegment.ofAddress(cuda.hostAlloc(bytes)).reinterpret(bytes);
            if (recordsDev != null) recordsDev.close();
            recordsDev = DeviceBuffer.allocate(cuda, bytes);
            capacity = n;
        }

        long decoded(long bytes, long stream) {
            if (decoded == null || decoded.byteSize() < bytes) {
                if (decoded != null) {
                    cuda.streamSynchronize(stream); // queued work may still read the old buffer
                    decoded.close();
                }
                decoded = DeviceBuffer.allocate(cuda, bytes + bytes / 4);
            }
            return decoded.pointer();
        }

        long output(int n, long stream) {
            long bytes = (long) n * 3 * outH * outW * (pixels ? 1 : Float.BYTES);
            if (output == null || output.byteSize() < bytes) {
                if (output != null) {
                    cuda.streamSynchronize(stream);
                    output.close();
                }
                output = DeviceBuffer.allocate(cuda, bytes);
            }
            return output.pointer();
        }

        long fallbackState(long fallback) {
            if (fallbackState == 0) {
                fallbackState = created(out -> nv.stateCreate(fallback, out), "nvjpegJpegStateCreate");
            }
            return fallbackState;
        }

        long deviceBytes() {
            return (decoded == null ? 0 : decoded.byteSize()) + (output == null ? 0 : output.byteSize())
                    + (recordsDev == null ? 0 : recordsDev.byteSize());
        }

        void close() {
            decodeStream.synchronize();
            nv.stateDestroy(state);
            if (fallbackState != 0) nv.stateDestroy(fallbackState);
            if (decoded != null) decoded.close();
            if (output != null) output.close();
            if (recordsDev != null) recordsDev.close();
            if (recordsHost != null) cuda.freeHost(recordsHost.address());
            decodedEvent.close();
            resampled.close();
            decodeStream.close();
        }
    }

    /** Settings of a {@link GpuJpegDecoder}. */
    public static final class Builder {
        private final CudaRuntime cuda;
        private final GpuJpegDataset<?> dataset;
        private int device;
        private boolean hardware = true;
        private boolean pixels;
        private boolean scratchPools = true;
        private boolean pipelining;
        private boolean preallocate = true;

        private Builder(CudaRuntime cuda, GpuJpegDataset<?> dataset) {
            this.cuda = Objects.requireNonNull(cuda, "cuda");
            this.dataset = Objects.requireNonNull(dataset, "dataset");
        }

        /** The device to decode on (the prefetcher's); 0 by default. */
        public Builder device(int ordinal) {
            this.device = ordinal;
            return this;
        }

        /** Whether to use the GPU's JPEG engines where it has them (default true); false: nvJPEG's default backend. */
        public Builder hardware(boolean use) {
            this.hardware = use;
            return this;
        }

        /** Output the 8-bit pixels, {@code (n, 3, H, W)} u8, instead of normalized floats: to compare, or to normalize later. */
        public Builder pixels(boolean u8) {
            this.pixels = u8;
            return this;
        }

        /**
         * Whether nvJPEG's scratch memory comes from Stoker's stream-ordered pools (default true,
         * where nvJPEG takes allocators) or from CUDA's allocators, whose frees wait for the whole
         * device, the training step included.
         */
        public Builder scratchPools(boolean use) {
            this.scratchPools = use;
            return this;
        }

        /**
         * Whether the JPEG engines' batched decoder may hold images back to pipeline them with the
         * next batch (nvJPEG's default); false by default ({@code NVJPEG_FLAGS_HW_DECODE_NO_PIPELINE}):
         * under a training step the pipelined decoder's call waits for the step (BENCHMARKS.md).
         */
        public Builder pipelining(boolean allow) {
            this.pipelining = allow;
            return this;
        }

        /**
         * Whether the JPEG engines' buffers are sized ahead ({@code nvjpegDecodeBatchedPreAllocate})
         * for the largest image seen, with a quarter to spare (default true), rather than left to
         * the decode call to reallocate.
         */
        public Builder preallocate(boolean ahead) {
            this.preallocate = ahead;
            return this;
        }

        public GpuJpegDecoder build() {
            return new GpuJpegDecoder(this);
        }
    }
}
