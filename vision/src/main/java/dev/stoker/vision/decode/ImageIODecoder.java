package dev.stoker.vision.decode;

import java.awt.image.BufferedImage;
import java.awt.image.ComponentColorModel;
import java.awt.image.Raster;
import java.awt.color.ColorSpace;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;

/**
 * The JDK's ImageIO as a decoder: slower than libjpeg-turbo, but it reads what turbo does not
 * (CMYK through its colour model, PNG, GIF, BMP) and runs where the library is missing.
 *
 * <p>Pixels are taken from the raster's samples, not through {@code getRGB}, which would colour
 * manage them (a grey PNG would come out gamma-shifted); the conversions follow PIL's
 * {@code convert("RGB")}: grey replicated, alpha dropped, CMYK by PIL's formula, 16-bit samples
 * by their high byte, except 16-bit grey alone, which PIL reads as mode {@code "I"} (PNG) or
 * {@code "I;16"} (TIFF) and converts by clipping at 255, not scaling: a 16-bit grey image comes
 * out white wherever it is above 255, as it does from PIL and so from torchvision. Streams are
 * cached in memory, never in temporary files. The limits libjpeg-turbo keeps hold here too: the
 * pixel limit, and no JPEG of more than {@value JpegScans#MAX_SCANS} scans ({@link JpegScans}).
 */
final class ImageIODecoder {
    static final String NAME = "ImageIO";

    private ImageIODecoder() {}

    static ImageHeader header(byte[] data) throws DecoderFailure {
        ImageReader reader = open(data, new ArrayList<>());
        try {
            return new ImageHeader(reader.getWidth(0), reader.getHeight(0), reader.getFormatName());
        } catch (IOException | RuntimeException e) {
            throw new DecoderFailure("unreadable header: " + message(e), e);
        } finally {
            reader.dispose();
        }
    }

    /**
     * Decodes the first image in {@code data} into {@code out} at full size, refusing images
     * over {@code options.maxPixels()} before reading their pixels.
     */
    static DecodedImage decode(byte[] data, String source, NativeBuffer out, DecodeOptions options)
            throws DecoderFailure {
        List<String> warnings = new ArrayList<>();
        ImageReader reader = open(data, warnings);
        try {
            int width = reader.getWidth(0);
            int height = reader.getHeight(0);
            ImageDecoder.checkSize(source, width, height, reader.getFormatName(), options);
            // libjpeg-turbo refuses these (TJFLAG_LIMITSCANS); without the check, ImageIO as its
            // fallback would spend minutes on them.
            if (reader.getFormatName().equalsIgnoreCase("jpeg")
                    && JpegScans.count(data, JpegScans.MAX_SCANS) > JpegScans.MAX_SCANS) {
                throw new DecoderFailure(JpegScans.TOO_MANY);
            }
            BufferedImage image = reader.read(0);
            if (!warnings.isEmpty() && !options.allowTruncated()) {
                throw new DecoderFailure("damaged or truncated data: " + String.join("; ", warnings));
            }
            return toRgb(image, out);
        } catch (IOException | RuntimeException e) {
            if (e instanceof ImageDecodeException ide) {
                throw ide;
            }
            throw new DecoderFailure(message(e), e);
        } finally {
            reader.dispose();
        }
    }

    private static ImageReader open(byte[] data, List<String> warnings) throws DecoderFailure {
        ImageInputStream in = new MemoryCacheImageInputStream(new ByteArrayInputStream(data));
        Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
        if (!readers.hasNext()) {
            throw new DecoderFailure("not an image format ImageIO knows (it starts with " + firstBytes(data) + ")");
        }
        ImageReader reader = readers.next();
        reader.setInput(in, true, true);
        reader.addIIOReadWarningListener((r, warning) -> warnings.add(warning));
        return reader;
    }

    private static DecodedImage toRgb(BufferedImage image, NativeBuffer out) {
        int width = image.getWidth();
        int height = image.getHeight();
        MemorySegment dst = out.ensure(3L * width * height);
        Raster raster = image.getRaster();
        int bands = raster.getNumBands();
        boolean components = image.getColorModel() instanceof ComponentColorModel;
        int bits = raster.getSampleModel().getSampleSize(0);
        if (!components || bits < 8 || bits > 16 || bands > 4) {
            // Palettes, packed pixels and the like: the colour model knows what the samples mean.
            int[] argb = new int[width];
            for (int y = 0; y < height; y++) {
                image.getRGB(0, y, width, 1, argb, 0, width);
                long row = 3L * width * y;
                for (int x = 0; x < width; x++) {
                    int p = argb[x];
                    dst.set(ValueLayout.JAVA_BYTE, row + 3L * x, (byte) (p >> 16));
                    dst.set(ValueLayout.JAVA_BYTE, row + 3L * x + 1, (byte) (p >> 8));
                    dst.set(ValueLayout.JAVA_BYTE, row + 3L * x + 2, (byte) p);
                }
            }
        } else {
            boolean cmyk = image.getColorModel().getColorSpace().getType() == ColorSpace.TYPE_CMYK && bands == 4;
            int shift = bits - 8;
            // PIL's "I" and "I;16" to "RGB" clip: 16-bit grey alone (grey + alpha is "LA", high byte).
            boolean clipGrey = bands == 1 && bits == 16;
            int[] samples = new int[width * bands];
            byte[] rgb = new byte[width * 3];
            for (int y = 0; y < height; y++) {
                raster.getPixels(0, y, width, 1, samples);
                for (int x = 0; x < width; x++) {
                    int s = x * bands;
                    int r;
                    int g;
                    int b;
                    if (cmyk) {  // the JDK gives CMYK not inverted
                        int k = samples[s + 3] >> shift;
                        r = PixelConversions.cmykChannel(samples[s] >> shift, k);
                        g = PixelConversions.cmykChannel(samples[s + 1] >> shift, k);
                        b = PixelConversions.cmykChannel(samples[s + 2] >> shift, k);
                    } else if (bands <= 2) {  // grey, grey + alpha
                        r = g = b = clipGrey ? Math.min(255, samples[s]) : samples[s] >> shift;
                    } else {  // RGB, RGBA: alpha dropped, as PIL's convert("RGB")
                        r = samples[s] >> shift;
                        g = samples[s + 1] >> shift;
                        b = samples[s + 2] >> shift;
                    }
                    rgb[3 * x] = (byte) r;
                    rgb[3 * x + 1] = (byte) g;
                    rgb[3 * x + 2] = (byte) b;
                }
                MemorySegment.copy(rgb, 0, dst, ValueLayout.JAVA_BYTE, 3L * width * y, rgb.length);
            }
        }
        return new DecodedImage(dst, width, height, ScalingFactor.ONE, NAME);
    }

    private static String message(Exception e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    static String firstBytes(byte[] data) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(8, data.length); i++) {
            sb.append(String.format("%02x ", data[i] & 0xFF));
        }
        return sb.toString().trim();
    }
}
