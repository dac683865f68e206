package dev.stoker.cuda.image;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;

/** JPEGs written by the JDK's ImageIO encoder (baseline or progressive, 4:2:0), as an ImageFolder. */
final class JpegFixtures {
    private JpegFixtures() {}

    /** Gradients, stripes and noise: content with edges, where decoders and resamplers differ if they do. */
    static BufferedImage picture(int width, int height, long seed) {
        Random r = new Random(seed);
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        int a = r.nextInt(256);
        int b = r.nextInt(256);
        int period = 3 + r.nextInt(20);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int red = (x * 255 / Math.max(1, width - 1) + a) & 0xFF;
                int green = (y * 255 / Math.max(1, height - 1) + b) & 0xFF;
                int blue = ((x / period + y / period) % 2 == 0 ? 220 : 30) ^ (r.nextInt(16));
                img.setRGB(x, y, (red << 16) | (green << 8) | blue);
            }
        }
        return img;
    }

    static void write(BufferedImage img, Path file, boolean progressive) throws IOException {
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        ImageWriteParam p = writer.getDefaultWriteParam();
        p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        p.setCompressionQuality(0.9f);
        if (progressive) {
            p.setProgressiveMode(ImageWriteParam.MODE_DEFAULT);
        }
        Files.createDirectories(file.getParent());
        try (ImageOutputStream out = ImageIO.createImageOutputStream(Files.newOutputStream(file))) {
            writer.setOutput(out);
            writer.write(null, new IIOImage(img, null, null), p);
        } finally {
            writer.dispose();
        }
    }

    /** {@code count} JPEGs of assorted sizes in two classes under {@code root}; every third progressive when asked. */
    static Path folder(Path root, int count, boolean someProgressive) throws IOException {
        int[][] sizes = {{500, 375}, {320, 240}, {37, 53}, {640, 480}, {1024, 683}, {300, 451}, {224, 224}, {97, 401}};
        for (int i = 0; i < count; i++) {
            int[] s = sizes[i % sizes.length];
            Path file = root.resolve("class_" + (i % 2)).resolve(String.format("%04d.jpg", i));
            write(picture(s[0], s[1], i), file, someProgressive && i % 3 == 2);
        }
        return root;
    }
}
