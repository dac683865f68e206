package dev.stoker.cuda.measure;

import dev.stoker.cuda.CudaRuntime;
import dev.stoker.cuda.CudaStream;
import dev.stoker.cuda.DeviceTensor;
import dev.stoker.cuda.PinnedMemory;
import dev.stoker.cuda.image.GpuJpegDataset;
import dev.stoker.cuda.image.GpuJpegDecoder;
import dev.stoker.cuda.image.GpuJpegSample;
import dev.stoker.loader.Batch;
import dev.stoker.memory.BufferPool;
import dev.stoker.memory.PooledBuffer;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.EncodedImage;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.transform.Geometry;
import dev.stoker.vision.transform.Resampler;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Scratch;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;

/**
 * How the GPU path's pixels compare with the CPU path's, in two parts:
 *
 * <ul>
 *   <li><b>the resample kernel</b>: nvJPEG's own decode of each image, resampled on the CPU by
 *       vision's {@link Resampler}, against the GPU kernel's output: the same arithmetic, so
 *       every value should be equal;</li>
 *   <li><b>the decoders</b>: the whole GPU path against the CPU path in its exact mode
 *       (libjpeg-turbo, whole image, full size): nvJPEG's IDCT and chroma upsampling differ from
 *       libjpeg-turbo's, by a level or two here and there.</li>
 * </ul>
 *
 * Both paths draw the same crops and flips (sample {@code i}'s {@code SampleRandom.of(0, 0, i)}),
 * and the comparison is of the 8-bit pixels before normalizing.
 */
public final class GpuJpegParity {
    private GpuJpegParity() {}

    /**
     * @param images           pixel values compared (images x 3 x H x W)
     * @param kernelMismatches values where the GPU kernel and the CPU resampler differ, on the same decoded pixels
     * @param meanAbsLevels    mean |GPU - CPU| over all values, in 8-bit levels, GPU path against the CPU path
     * @param maxAbsLevels     the largest such difference
     * @param equalFraction    share of values exactly equal
     * @param within2Fraction  share within 2 levels
     */
    public record Result(long images, long values, long kernelMismatches, double meanAbsLevels, int maxAbsLevels,
                         double equalFraction, double within2Fraction) {}

    /**
     * Compares the first {@code count} samples of {@code source} (as {@link EncodedImage}s) through both paths.
     *
     * @param exactPipeline the same transforms in the exact mode ({@code ImagePipeline.Builder.exact()}), for the CPU
     * @param pipeline      geometric transforms only, for the GPU
     */
    public static <S> Result compare(CudaRuntime cuda, dev.stoker.data.Dataset<S> source,
                                     java.util.function.Function<? super S, EncodedImage> encoded,
                                     java.util.function.Supplier<ImagePipeline> exactPipeline, ImagePipeline pipeline, int count,
                                     int maxJpegBytes) {
        int n = (int) Math.min(count, source.size());
        GpuJpegDataset<S> gpu = GpuJpegDataset.of(source, encoded, pipeline, maxJpegBytes);
        Shape out = pipeline.outputShape();
        int h = (int) out.dim(1);
        int w = (int) out.dim(2);
        long plane = (long) h * w;
        try (ImagePipeline exact = exactPipeline.get();
             BufferPool pool = BufferPool.builder().name("parity").source(new PinnedMemory(cuda))
                     .budgetBytes(4L * n * (maxJpegBytes + 256) + (64L << 20)).build();
             GpuJpegDecoder decoder = GpuJpegDecoder.builder(cuda, gpu).pixels(true).build();
             CudaStream stream = new CudaStream(cuda);
             Arena arena = Arena.ofConfined()) {
            Batch batch = hostBatch(gpu, pool, n);
            Object result;
            try {
                result = decoder.apply(0, batch, Map.of(), stream.handle());
                stream.synchronize();
            } finally {
                batch.close();
            }
            DeviceTensor images = (DeviceTensor) ((Map<?, ?>) result).get("image");
            MemorySegment gpuPixels = arena.allocate(images.byteSize(), 8);
            cuda.memcpy(gpuPixels.address(), images.pointer(), images.byteSize(), CudaRuntime.MEMCPY_DEVICE_TO_HOST);

            long kernelMismatches = 0;
            long sum = 0;
            int max = 0;
            long equal = 0;
            long within2 = 0;
            Scratch scratch = new Scratch();
            for (int i = 0; i < n; i++) {
                EncodedImage e = encoded.apply(source.get(i));
                MemorySegment gpuImage = gpuPixels.asSlice(i * 3 * plane, 3 * plane);
                // the kernel: CPU resample of nvJPEG's own pixels
                GpuJpegDecoder.HostImage decoded = decoder.decodeToHost(e.bytes(), e.key(), arena);
                Geometry g = pipeline.plan(decoded.width(), decoded.height(), SampleRandom.of(0, 0, i));
                Tensor cpuOfNv = Tensor.allocate(arena, DType.U8, Shape.of(3, h, w));
                Resampler.render(decoded.rgb(), decoded.width(), decoded.height(), g, pipeline.normalize(), cpuOfNv,
                        scratch);
                kernelMismatches += mismatches(gpuImage, cpuOfNv.segment());
                // the decoders: the CPU path, exact mode
                Tensor cpu = exact.apply(e.bytes().toArray(ValueLayout.JAVA_BYTE), e.key(), SampleRandom.of(0, 0, i),
                        DType.U8, arena);
                for (long v = 0; v < 3 * plane; v++) {
                    int d = Math.abs((gpuImage.get(ValueLayout.JAVA_BYTE, v) & 0xFF)
                            - (cpu.segment().get(ValueLayout.JAVA_BYTE, v) & 0xFF));
                    sum += d;
                    max = Math.max(max, d);
                    if (d == 0) equal++;
                    if (d <= 2) within2++;
                }
            }
            long values = n * 3 * plane;
            return new Result(n, values, kernelMismatches, (double) sum / values, max, (double) equal / values,
                    (double) within2 / values);
        }
    }

    private static long mismatches(MemorySegment a, MemorySegment b) {
        long m = 0;
        for (long v = 0; v < a.byteSize(); v++) {
            if (a.get(ValueLayout.JAVA_BYTE, v) != b.get(ValueLayout.JAVA_BYTE, v)) m++;
        }
        return m;
    }

    /** Samples 0 to n-1 written into one pinned batch laid out as the loader's fill path would. */
    static Batch hostBatch(GpuJpegDataset<?> gpu, BufferPool pool, int n) {
        int row = gpu.maxJpegBytes();
        PooledBuffer jpeg = pool.acquire((long) n * row, "jpeg");
        PooledBuffer lengths = pool.acquire(8L * n, "jpeg_bytes");
        PooledBuffer geometry = pool.acquire(8L * n * 19, "geometry");
        PooledBuffer labels = pool.acquire(8L * n, "label");
        long[] indices = new long[n];
        for (int i = 0; i < n; i++) {
            GpuJpegSample s = gpu.get(i);
            indices[i] = i;
            MemorySegment.copy(s.jpeg(), 0, jpeg.segment(), ValueLayout.JAVA_BYTE, (long) i * row, s.jpeg().length);
            lengths.segment().setAtIndex(ValueLayout.JAVA_LONG, i, s.jpeg().length);
            MemorySegment.copy(s.geometry(), 0, geometry.segment(), ValueLayout.JAVA_LONG, 8L * i * 19, 19);
            labels.segment().setAtIndex(ValueLayout.JAVA_LONG, i, s.label());
        }
        Map<String, Object> data = new java.util.LinkedHashMap<>();
        data.put("jpeg", new Tensor(jpeg.segment().asSlice(0, (long) n * row), DType.U8, Shape.of(n, row)));
        data.put("jpeg_bytes", new Tensor(lengths.segment().asSlice(0, 8L * n), DType.I64, Shape.of(n)));
        data.put("geometry", new Tensor(geometry.segment().asSlice(0, 8L * n * 19), DType.I64, Shape.of(n, 19)));
        data.put("label", new Tensor(labels.segment().asSlice(0, 8L * n), DType.I64, Shape.of(n)));
        return new Batch(0, 0, indices, data, List.of(jpeg, lengths, geometry, labels));
    }
}
