package dev.stoker.examples.djl;

import dev.stoker.formats.folder.ImageFolder;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import javax.imageio.ImageIO;

/**
 * A small image folder in torchvision's layout, {@code root/<class>/<file>.jpg}: three classes of
 * 32x32 JPEGs, each image its class's colour with noise on every pixel and a brightness of its
 * own, so that a model can learn the classes from the pixels and not from one fixed value.
 */
final class ColourFolder {
    private static final String[] CLASSES = {"blue", "green", "red"};
    private static final int[][] COLOURS = {{40, 60, 200}, {50, 180, 60}, {200, 50, 40}};
    private static final int SIDE = 32;

    private ColourFolder() {}

    /** Writes {@code perClass} images of each class under {@code root} (emptied first) and scans it. */
    static ImageFolder write(Path root, int perClass) throws IOException {
        if (Files.exists(root)) {
            try (Stream<Path> old = Files.walk(root)) {
                for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        SplittableRandom random = new SplittableRandom(3);
        for (int c = 0; c < CLASSES.length; c++) {
            Path dir = Files.createDirectories(root.resolve(CLASSES[c]));
            for (int i = 0; i < perClass; i++) {
                BufferedImage image = new BufferedImage(SIDE, SIDE, BufferedImage.TYPE_INT_RGB);
                double brightness = random.nextDouble(0.6, 1.3);
                for (int y = 0; y < SIDE; y++) {
                    for (int x = 0; x < SIDE; x++) {
                        int r = pixel(COLOURS[c][0] * brightness, random);
                        int g = pixel(COLOURS[c][1] * brightness, random);
                        int b = pixel(COLOURS[c][2] * brightness, random);
                        image.setRGB(x, y, r << 16 | g << 8 | b);
                    }
                }
                Path file = dir.resolve("%03d.jpg".formatted(i));
                if (!ImageIO.write(image, "jpg", file.toFile())) {
                    throw new IOException("this JDK has no JPEG writer for " + file);
                }
            }
        }
        return ImageFolder.scan(root);   // classes sorted by name: blue 0, green 1, red 2
    }

    private static int pixel(double mean, SplittableRandom random) {
        return (int) Math.clamp(mean + random.nextDouble(-40, 40), 0, 255);
    }
}
