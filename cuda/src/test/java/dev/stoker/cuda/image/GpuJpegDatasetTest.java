package dev.stoker.cuda.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.formats.folder.ImageBytes;
import dev.stoker.formats.folder.ImageFolder;
import dev.stoker.vision.EncodedImage;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.augment.RandomInvert;
import dev.stoker.vision.decode.ImageDecodeException;
import dev.stoker.vision.transform.AxisMapping;
import dev.stoker.vision.transform.CenterCrop;
import dev.stoker.vision.transform.Geometry;
import dev.stoker.vision.transform.RandomHorizontalFlip;
import dev.stoker.vision.transform.RandomResizedCrop;
import dev.stoker.vision.transform.Resize;
import dev.stoker.vision.transform.SampleRandom;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worker's half of GPU decoding, which needs no GPU: the plan it writes and what it refuses. */
class GpuJpegDatasetTest {
    private static final Function<ImageBytes, EncodedImage> ENCODED =
            s -> EncodedImage.of(s.bytes(), s.label(), s.path().toString());

    @TempDir
    Path dir;

    @Test
    void eachSampleCarriesTheCpuPathsDrawsAsTheKernelsRecord() throws IOException {
        var folder = ImageFolder.scan(JpegFixtures.folder(dir, 16, true)).dataset();
        for (ImagePipeline pipeline : new ImagePipeline[] {ImagePipeline.train(224), ImagePipeline.eval(224),
                ImagePipeline.builder().add(new RandomResizedCrop(96, 160)).add(new RandomHorizontalFlip()).build()}) {
            try (pipeline) {
                GpuJpegDataset<ImageBytes> gpu = GpuJpegDataset.of(folder, ENCODED, pipeline, 1 << 20);
                for (int i = 0; i < folder.size(); i++) {
                    GpuJpegSample s = gpu.get(i);
                    ImageBytes src = folder.get(i);
                    assertThat(s.jpeg()).isEqualTo(src.bytes());
                    assertThat(s.label()).isEqualTo(src.label());
                    BufferedImage img = ImageIO.read(src.path().toFile());
                    // outside a loader the draws are SampleRandom.of(0, 0, i), as JpegDataset's
                    Geometry g = pipeline.plan(img.getWidth(), img.getHeight(), SampleRandom.of(0, 0, i));
                    long[] w = s.geometry();
                    assertThat(w).hasSize(GpuSampleRecord.WORDS);
                    assertThat(w[GpuSampleRecord.SOURCE]).isZero(); // filled in by the decoder
                    assertThat(w[GpuSampleRecord.SOURCE_WIDTH]).isEqualTo(img.getWidth());
                    assertThat(w[GpuSampleRecord.SOURCE_HEIGHT]).isEqualTo(img.getHeight());
                    assertAxis(w, 4, g.mappingX());
                    assertAxis(w, 11, g.mappingY());
                    assertThat(w[18]).isEqualTo(g.isFlipped() ? 1 : 0);
                }
            }
        }
    }

    private static void assertAxis(long[] w, int at, AxisMapping a) {
        assertThat(w[at]).isEqualTo(a.origin());
        assertThat(w[at + 1]).isEqualTo(a.inSize());
        assertThat(Double.longBitsToDouble(w[at + 2])).isEqualTo(a.in0());
        assertThat(Double.longBitsToDouble(w[at + 3])).isEqualTo(a.scale());
        assertThat(w[at + 4]).isEqualTo(a.shift());
        assertThat(w[at + 5]).isEqualTo(a.imgStart());
        assertThat(w[at + 6]).isEqualTo(a.imgEnd());
    }

    @Test
    void aFileLargerThanARowIsRefusedByName() throws IOException {
        var folder = ImageFolder.scan(JpegFixtures.folder(dir, 4, false)).dataset();
        try (ImagePipeline p = ImagePipeline.train(64)) {
            GpuJpegDataset<ImageBytes> gpu = GpuJpegDataset.of(folder, ENCODED, p, 1000);
            int big = -1;
            for (int i = 0; i < folder.size() && big < 0; i++) {
                if (folder.get(i).bytes().length > 1000) big = i;
            }
            String name = folder.get(big).path().getFileName().toString();
            int index = big;
            assertThatThrownBy(() -> gpu.get(index)).isInstanceOf(ImageDecodeException.class)
                    .hasMessageContaining(name).hasMessageContaining("maxJpegBytes");
        }
    }

    @Test
    void anImageThatIsNotAJpegIsRefusedByName() throws IOException {
        Path png = dir.resolve("c").resolve("x.png");
        Files.createDirectories(png.getParent());
        ImageIO.write(JpegFixtures.picture(40, 30, 1), "png", png.toFile());
        var folder = ImageFolder.scan(dir).dataset();
        try (ImagePipeline p = ImagePipeline.train(32)) {
            GpuJpegDataset<ImageBytes> gpu = GpuJpegDataset.of(folder, ENCODED, p, 1 << 20);
            assertThatThrownBy(() -> gpu.get(0)).isInstanceOf(ImageDecodeException.class)
                    .hasMessageContaining("x.png").hasMessageContaining("JPEGs only");
        }
    }

    @Test
    void aShrinkBeyondTheKernelsFilterIsRefusedByName() throws IOException {
        Path file = dir.resolve("c").resolve("wide.jpg");
        JpegFixtures.write(JpegFixtures.picture(2400, 40, 3), file, false);
        var folder = ImageFolder.scan(dir).dataset();
        try (ImagePipeline p = ImagePipeline.builder().add(Resize.to(8, 8)).build()) {
            GpuJpegDataset<ImageBytes> gpu = GpuJpegDataset.of(folder, ENCODED, p, 1 << 20);
            assertThatThrownBy(() -> gpu.get(0)).hasMessageContaining("wide.jpg").hasMessageContaining("CPU path");
        }
    }

    @Test
    void aPipelineWithPixelOpsIsRefused() throws IOException {
        var folder = ImageFolder.scan(JpegFixtures.folder(dir, 2, false)).dataset();
        try (ImagePipeline p = ImagePipeline.builder().add(new CenterCrop(32)).add(new RandomInvert(0.5)).build()) {
            assertThatThrownBy(() -> GpuJpegDataset.of(folder, ENCODED, p, 1 << 20))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CPU path");
        }
    }
}
