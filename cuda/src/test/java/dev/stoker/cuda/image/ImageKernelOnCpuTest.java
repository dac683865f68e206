package dev.stoker.cuda.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.transform.CenterCrop;
import dev.stoker.vision.transform.Geometry;
import dev.stoker.vision.transform.RandomHorizontalFlip;
import dev.stoker.vision.transform.RandomResizedCrop;
import dev.stoker.vision.transform.Resampler;
import dev.stoker.vision.transform.Resize;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Scratch;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GPU resample kernel's arithmetic, checked without a GPU: its CUDA source compiled for the
 * CPU (g++, no fused multiply-add, as nvcc's -fmad=false) against vision's resampler, over random
 * images and random crops, resizes and flips. Every value must be equal. Skipped where there is no
 * g++; on a GPU, {@link GpuJpegDecoderTest} checks the PTX itself the same way.
 */
class ImageKernelOnCpuTest {
    private static final Path KERNEL = Path.of("src/main/cuda/image_kernels.cu").toAbsolutePath();

    @TempDir
    Path dir;

    @Test
    void theKernelComputesWhatTheCpuResamplerDoesOverRandomGeometries() throws Exception {
        assumeTrue(Files.isRegularFile(KERNEL), "the kernel source is at " + KERNEL);
        Path exe = compile();
        Random rnd = new Random(20261126);
        int[][] outputs = {{224, 224}, {96, 160}, {40, 31}}; // a shrink of at most 31 times: the kernel's limit
        for (int[] out : outputs) {
            List<ImagePipeline> pipelines = List.of(
                    ImagePipeline.builder().add(new RandomResizedCrop(out[0], out[1])).add(new RandomHorizontalFlip()).build(),
                    ImagePipeline.builder().add(Resize.shorterSide(Math.max(out[0], out[1]) + 19))
                            .add(new CenterCrop(out[0], out[1])).build(),
                    ImagePipeline.builder().add(Resize.to(out[0], out[1])).add(new RandomHorizontalFlip()).build());
            for (ImagePipeline p : pipelines) {
                try (p; Arena arena = Arena.ofConfined()) {
                    int n = 12;
                    ByteArrayOutputStream input = new ByteArrayOutputStream();
                    ByteArrayOutputStream expected = new ByteArrayOutputStream();
                    input.write(longs(n, out[0], out[1]));
                    Scratch scratch = new Scratch();
                    for (int i = 0; i < n; i++) {
                        int w = 8 + rnd.nextInt(900);
                        int h = 8 + rnd.nextInt(700);
                        byte[] rgb = new byte[w * h * 3];
                        rnd.nextBytes(rgb); // noise: every tap's weight shows
                        Geometry g = p.plan(w, h, SampleRandom.of(rnd.nextLong(), 0, i));
                        MemorySegment record = MemorySegment.ofArray(new long[GpuSampleRecord.WORDS]);
                        GpuSampleRecord.write(record, 0, g, w, h, "image " + i);
                        input.write(longs(record.toArray(ValueLayout.JAVA_LONG)));
                        input.write(rgb);
                        Tensor t = Tensor.allocate(arena, DType.U8, Shape.of(3, out[0], out[1]));
                        Resampler.render(MemorySegment.ofArray(rgb), w, h, g, p.normalize(), t, scratch);
                        expected.write(t.segment().toArray(ValueLayout.JAVA_BYTE));
                    }
                    Path data = dir.resolve("case.bin");
                    expected.writeTo(input);
                    Files.write(data, input.toByteArray());
                    assertThat(run(exe, data)).as("values that differ, " + p + " into " + out[0] + "x" + out[1])
                            .isEqualTo("0");
                }
            }
        }
    }

    @Test
    void theShippedPtxIsBuiltFromTheSourceAsItIsNow() throws Exception {
        Path ptx = Path.of("src/main/resources/dev/stoker/cuda/image/image_kernels.ptx").toAbsolutePath();
        assumeTrue(Files.isRegularFile(ptx), "the PTX is at " + ptx);
        Path out = dir.resolve("k.ptx");
        Process nvcc;
        try {
            // scripts/build-ptx.sh's flags
            nvcc = new ProcessBuilder("nvcc", "-ptx", "-arch=compute_75", "-fmad=false", "-O3", "-o", out.toString(),
                    KERNEL.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "no nvcc here: " + e.getMessage());
            throw e;
        }
        String log = new String(nvcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(nvcc.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(nvcc.exitValue()).as(log).isZero();
        assertThat(instructions(Files.readString(ptx))).as("image_kernels.ptx is stale: run scripts/build-ptx.sh")
                .isEqualTo(instructions(Files.readString(out)));
    }

    /** The PTX without comments and its version line (build-ptx.sh lowers the version). */
    private static List<String> instructions(String ptx) {
        return ptx.lines().filter(l -> !l.startsWith("//") && !l.startsWith(".version") && !l.isBlank()).toList();
    }

    private Path compile() throws IOException, InterruptedException {
        Path src = dir.resolve("kernel_on_cpu.cpp");
        try (InputStream in = ImageKernelOnCpuTest.class.getResourceAsStream("kernel_on_cpu.cpp")) {
            Files.write(src, in.readAllBytes());
        }
        Path exe = dir.resolve("kernel_on_cpu");
        Process gcc;
        try {
            gcc = new ProcessBuilder("g++", "-O1", "-ffp-contract=off", "-DKERNEL_SOURCE=\"" + KERNEL + "\"", "-o",
                    exe.toString(), src.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "no g++ here: " + e.getMessage());
            throw e;
        }
        String log = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(gcc.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(gcc.exitValue()).as(log).isZero();
        return exe;
    }

    private static String run(Path exe, Path data) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(exe.toString(), data.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    private static byte[] longs(long... values) {
        ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) b.putLong(v);
        return b.array();
    }
}
