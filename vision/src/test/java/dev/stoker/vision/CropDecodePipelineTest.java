package dev.stoker.vision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.tensor.DType;
import dev.stoker.vision.decode.ImageDecoder;
import dev.stoker.vision.transform.CenterCrop;
import dev.stoker.vision.transform.Normalize;
import dev.stoker.vision.transform.RandomHorizontalFlip;
import dev.stoker.vision.transform.RandomResizedCrop;
import dev.stoker.vision.transform.Resize;
import dev.stoker.vision.transform.SampleRandom;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.util.SplittableRandom;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pipeline decoding only the crop: on smooth, quality-75 JPEGs (few bytes a pixel, where
 * cropping pays and is taken) the output is the whole decode's but for a few values near the
 * cut (libjpeg-turbo 2.x's lossless crop; with 3.x none), with random crops, flips, DCT scaling
 * and a crop after a resize; {@code exact()} is PIL's path.
 */
class CropDecodePipelineTest {
    private static byte[] smooth;

    @BeforeAll
    static void image() throws IOException {
        assumeTrue(ImageDecoder.turboJpegAvailable(), "libturbojpeg is not installed");
        BufferedImage img = new BufferedImage(640, 480, BufferedImage.TYPE_3BYTE_BGR);
        Graphics2D g = img.createGraphics();
        g.setPaint(new GradientPaint(0, 0, new Color(20, 90, 200), 640, 480, new Color(230, 200, 40)));
        g.fillRect(0, 0, 640, 480);
        SplittableRandom rnd = new SplittableRandom(5);
        for (int i = 0; i < 12; i++) {
            g.setColor(new Color(rnd.nextInt(256), rnd.nextInt(256), rnd.nextInt(256)));
            g.fillOval(rnd.nextInt(640), rnd.nextInt(480), 20 + rnd.nextInt(200), 20 + rnd.nextInt(200));
        }
        g.dispose();
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        ImageWriteParam p = writer.getDefaultWriteParam();
        p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        p.setCompressionQuality(0.75f);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream s = new MemoryCacheImageOutputStream(out)) {
            writer.setOutput(s);
            writer.write(null, new IIOImage(img, null, null), p);
        } finally {
            writer.dispose();
        }
        smooth = out.toByteArray();
    }

    @Test
    void randomCropsDecodedOnTheirOwnGiveTheWholeDecodesOutputButNearTheCut() {
        for (boolean dct : new boolean[] {false, true}) {
            try (ImagePipeline whole = pipeline(false, dct); ImagePipeline cropped = pipeline(true, dct);
                 Arena arena = Arena.ofConfined()) {
                int differing = 0;
                long sum = 0;
                long values = 0;
                for (int i = 0; i < 40; i++) {
                    float[] a = whole.apply(smooth, "smooth", SampleRandom.of(3, 0, i), DType.U8, arena).toFloatArray();
                    float[] b = cropped.apply(smooth, "smooth", SampleRandom.of(3, 0, i), DType.U8, arena).toFloatArray();
                    int max = 0;
                    for (int k = 0; k < a.length; k++) {
                        int d = (int) Math.abs(a[k] - b[k]);
                        max = Math.max(max, d);
                        sum += d;
                    }
                    values += a.length;
                    differing += max > 0 ? 1 : 0;
                    assertThat(max).as("sample %d, DCT scaling %s", i, dct).isLessThanOrEqualTo(32);
                }
                if (ImageDecoder.turboJpegDecodesRegions()) {
                    // libjpeg-turbo 3 decodes the region in place, with the whole decode's pixels.
                    assertThat(differing).as("samples that differ from the whole decode's").isZero();
                } else {
                    // Cropping was taken (some outputs differ at the cut), and the differences are rare.
                    assertThat(differing).as("samples whose crop was decoded on its own").isGreaterThan(5);
                }
                assertThat((double) sum / values).as("mean difference in levels").isLessThan(0.05);
            }
        }
    }

    @Test
    void aCropAfterAResizeReadsOnlyWhatWasDecoded() {
        // CenterCrop(64) of Resize(480): the crop keeps a small part of the image, read through
        // the filter's support past the crop; any tap outside the decoded window would throw.
        try (ImagePipeline whole = ImagePipeline.builder().add(Resize.shorterSide(480)).add(new CenterCrop(64))
                     .normalize(Normalize.NONE).exact().build();
             ImagePipeline cropped = ImagePipeline.builder().add(Resize.shorterSide(480)).add(new CenterCrop(64))
                     .normalize(Normalize.NONE).dctScaling(false).build();
             Arena arena = Arena.ofConfined()) {
            float[] a = whole.apply(smooth, "smooth", null, DType.U8, arena).toFloatArray();
            float[] b = cropped.apply(smooth, "smooth", null, DType.U8, arena).toFloatArray();
            assertThat(b).containsExactly(a);  // the cut is far enough from the 64x64 centre: no difference
        }
    }

    private static ImagePipeline pipeline(boolean crop, boolean dct) {
        return ImagePipeline.builder().add(new RandomResizedCrop(112)).add(new RandomHorizontalFlip())
                .normalize(Normalize.NONE).dctScaling(dct).cropDecode(crop).build();
    }
}
