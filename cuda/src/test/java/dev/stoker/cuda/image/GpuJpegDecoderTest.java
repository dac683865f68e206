package dev.stoker.cuda.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.cuda.Cuda;
import dev.stoker.cuda.CudaRuntime;
import dev.stoker.cuda.DeviceBatch;
import dev.stoker.cuda.DeviceBuffer;
import dev.stoker.cuda.DevicePrefetcher;
import dev.stoker.cuda.DeviceTensor;
import dev.stoker.cuda.lib.NvJpeg;
import dev.stoker.cuda.measure.GpuJpegParity;
import dev.stoker.formats.folder.ImageBytes;
import dev.stoker.formats.folder.ImageFolder;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.vision.EncodedImage;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.transform.RandomHorizontalFlip;
import dev.stoker.vision.transform.RandomResizedCrop;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JPEGs decoded on the GPU (needs a GPU and nvJPEG; skipped elsewhere). */
class GpuJpegDecoderTest {
    private static final Function<ImageBytes, EncodedImage> ENCODED =
            s -> EncodedImage.of(s.bytes(), s.label(), s.path().toString());

    @TempDir
    Path dir;

    private static CudaRuntime cudaWithNvJpegOrSkip() {
        assumeTrue(Cuda.isAvailable(), Cuda.status());
        assumeTrue(NvJpeg.library().isPresent(), NvJpeg.status());
        return Cuda.require();
    }

    private static ImagePipeline exact(int h, int w) {
        return ImagePipeline.builder().add(new RandomResizedCrop(h, w)).add(new RandomHorizontalFlip()).exact().build();
    }

    @Test
    void theKernelResamplesAsTheCpuDoesAndTheDecodersAgreeWithinTheirKnownDifference() throws IOException {
        CudaRuntime cuda = cudaWithNvJpegOrSkip();
        var folder = ImageFolder.scan(JpegFixtures.folder(dir, 24, true)).dataset();
        for (int[] size : new int[][] {{224, 224}, {96, 160}}) {
            try (ImagePipeline train = ImagePipeline.builder().add(new RandomResizedCrop(size[0], size[1]))
                    .add(new RandomHorizontalFlip()).build()) {
                GpuJpegParity.Result r = GpuJpegParity.compare(cuda, folder, ENCODED, () -> exact(size[0], size[1]),
                        train, 24, 1 << 20);
                assertThat(r.images()).isEqualTo(24);
                assertThat(r.kernelMismatches()).as("kernel vs CPU resampler on the same pixels").isZero();
                // nvJPEG and libjpeg-turbo differ in IDCT rounding and in how they upsample 4:2:0
                // chroma (libjpeg-turbo's "fancy" triangle filter): on these fixtures, stripes and
                // noise in every channel, by 4.6 levels on average (measured on an H200); on W3's
                // images by 0.9. A wrong channel order or a misplaced row is tens of levels.
                assertThat(r.meanAbsLevels()).as("nvJPEG vs libjpeg-turbo, mean |d| in levels").isLessThan(8.0);
            }
        }
    }

    @Test
    void aLoaderThroughThePrefetchersStageDeliversEveryImageAndGivesEverythingBack() throws IOException {
        CudaRuntime cuda = cudaWithNvJpegOrSkip();
        var folder = ImageFolder.scan(JpegFixtures.folder(dir, 50, true)).dataset();
        long deviceBefore = DeviceBuffer.liveBytes();
        try (ImagePipeline train = ImagePipeline.train(64)) {
            GpuJpegDataset<ImageBytes> jpegs = GpuJpegDataset.of(folder, ENCODED, train, 1 << 20);
            DataLoader<GpuJpegSample> loader = DataLoader.builder(jpegs).batchSize(16).shuffle(true).seed(3)
                    .numWorkers(2).pinMemory(true).build();
            GpuJpegDecoder decoder = GpuJpegDecoder.builder(cuda, jpegs).build();
            List<Long> labels = new ArrayList<>();
            List<Long> expected = new ArrayList<>();
            try (DevicePrefetcher gpu = DevicePrefetcher.builder(cuda, loader.iterator()).stage(decoder).build();
                 Arena arena = Arena.ofConfined()) {
                while (gpu.hasNext()) {
                    try (DeviceBatch b = gpu.next()) {
                        DeviceTensor image = b.tensor("image");
                        DeviceTensor label = b.tensor("label");
                        int n = (int) image.shape().dim(0);
                        assertThat(image.dtype()).isEqualTo(DType.F32);
                        assertThat(image.shape().toArray()).containsExactly((long) n, 3L, 64L, 64L);
                        cuda.streamSynchronize(gpu.consumerStream());
                        MemorySegment host = arena.allocate(label.byteSize(), 8);
                        cuda.memcpy(host.address(), label.pointer(), label.byteSize(), CudaRuntime.MEMCPY_DEVICE_TO_HOST);
                        for (int i = 0; i < n; i++) labels.add(host.getAtIndex(ValueLayout.JAVA_LONG, i));
                        for (long idx : b.indices()) expected.add((long) folder.get(idx).label());
                    }
                }
            } finally {
                decoder.close();
                loader.close();
            }
            assertThat(labels).hasSize(50).isEqualTo(expected);
            assertThat(loader.pool().lentCount()).as("batches still lent after close").isZero();
            assertThat(DeviceBuffer.liveBytes()).isEqualTo(deviceBefore);
        }
    }
}
