package dev.stoker.vision.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.memory.MappedDataChangedError;
import dev.stoker.vision.Fixtures;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An image that lies in a memory-mapped file (a member of a mapped tar or MDS shard) is copied
 * into the session's buffer before a native decoder sees it: when the file was cut short under
 * the map, the copy's fault is named (MappedDataChangedError, naming the image), where libjpeg-turbo
 * or libwebp reading the map in place would have met a SIGBUS and killed the JVM; before the copy
 * existed this test class crashed its fork. The JVM and the session go on decoding.
 */
class MappedImageTest {
    private static final int OFFSET = 8192; // the image starts two pages in; the file is cut at one page

    @TempDir
    Path dir;

    private static byte[] noiseJpeg() throws IOException {
        BufferedImage img = new BufferedImage(160, 120, BufferedImage.TYPE_3BYTE_BGR);
        SplittableRandom rnd = new SplittableRandom(7);
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                img.setRGB(x, y, rnd.nextInt(1 << 24));
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "jpg", out);
        return out.toByteArray();
    }

    /** A file of OFFSET bytes of padding, then the image. */
    private Path fileWith(byte[] image, String name) throws IOException {
        byte[] file = new byte[OFFSET + image.length];
        System.arraycopy(image, 0, file, OFFSET, image.length);
        return Files.write(dir.resolve(name), file);
    }

    private static MemorySegment map(Path file, Arena arena) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
        }
    }

    private static void cut(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(4096);
        }
    }

    @Test
    void aMappedImageDecodesAsItsBytesDo() throws IOException {
        byte[] jpeg = noiseJpeg();
        byte[] webp = Fixtures.bytes("formats/lossless.webp");
        byte[] png = Fixtures.bytes("formats/gray16.png");
        try (ImageDecoder decoder = ImageDecoder.create(); DecodeSession s = decoder.session();
             Arena arena = Arena.ofShared()) {
            for (byte[] image : new byte[][] {jpeg, webp, png}) {
                MemorySegment mapped = map(fileWith(image, "whole.bin"), arena).asSlice(OFFSET);
                assertThat(mapped.isMapped()).isTrue();
                byte[] fromMap = s.decode(mapped, "mapped").pixels().toArray(ValueLayout.JAVA_BYTE);
                byte[] fromHeap = s.decode(image, "heap").pixels().toArray(ValueLayout.JAVA_BYTE);
                assertThat(fromMap).isEqualTo(fromHeap);
            }
        }
    }

    @Test
    void aMappedImageCutShortIsNamedAndTheSessionGoesOn() throws IOException {
        byte[] jpeg = noiseJpeg();
        byte[][] images = {jpeg, Fixtures.bytes("formats/lossless.webp"), Fixtures.bytes("formats/gray16.png")};
        String[] names = {"n01440764/img_7.jpg", "img_8.webp", "img_9.png"};
        try (ImageDecoder decoder = ImageDecoder.create(); DecodeSession s = decoder.session();
             Arena arena = Arena.ofShared()) {
            for (int i = 0; i < images.length; i++) {
                Path file = fileWith(images[i], "cut" + i + ".bin");
                MemorySegment mapped = map(file, arena).asSlice(OFFSET);
                cut(file);
                String name = names[i];
                assertThatThrownBy(() -> s.open(mapped, name))
                        .isInstanceOf(MappedDataChangedError.class)
                        .hasMessageStartingWith(name + ": the memory-mapped file that holds this image ("
                                + images[i].length + " bytes) changed while it was mapped")
                        .hasCauseInstanceOf(InternalError.class);
            }
            assertThat(s.decode(jpeg, "after").width()).isEqualTo(160);
        }
    }

    /**
     * Once the JIT has compiled the copy, the JVM reports its fault late (at the thread's next
     * safepoint poll, perhaps after the copy's method returned); the session makes it surface
     * inside its catch, so it is still named.
     */
    @Test
    void aHotCopyOfAnImageCutShortIsNamed() throws IOException {
        byte[] jpeg = noiseJpeg();
        try (ImageDecoder decoder = ImageDecoder.create(); DecodeSession s = decoder.session();
             Arena arena = Arena.ofShared()) {
            Path file = fileWith(jpeg, "hot.bin");
            MemorySegment mapped = map(file, arena).asSlice(OFFSET);
            for (int round = 0; round < 5000; round++) { // compiled by C2 long before the end
                assertThat(s.open(mapped, "hot.jpg").width()).isEqualTo(160);
            }
            cut(file);
            assertThatThrownBy(() -> s.open(mapped, "hot.jpg")).isInstanceOf(MappedDataChangedError.class)
                    .hasMessageStartingWith("hot.jpg: the memory-mapped file");
        }
    }
}
