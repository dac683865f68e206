package dev.stoker.bench;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.decode.DecodeOptions;
import dev.stoker.vision.decode.DecodeSession;
import dev.stoker.vision.decode.ImageDecoder;
import dev.stoker.vision.transform.RandomHorizontalFlip;
import dev.stoker.vision.transform.RandomResizedCrop;
import dev.stoker.vision.transform.Resize;
import dev.stoker.vision.transform.SampleRandom;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Single-thread image throughput, one operation = one image, on JPEGs like W3's (400-640 x
 * 300-480, quality 90, 4:2:0), the four measurements of WORKLOADS.md's W3 limits: decode only;
 * decode + resize to 224x224; the same with DCT scaling (PIL's {@code draft}); decode + the full
 * W3 training transform (RandomResizedCrop 224, flip, ToTensor, Normalize) into a batch slot.
 * Pillow's figures for the same four: 794, 471, (draft), 393 images/s.
 *
 * <pre>
 * ./mvnw -pl bench -am package -DskipTests
 * java -jar bench/target/benchmarks.jar ImagePipelineBenchmark                       # 50 generated images
 * java -jar bench/target/benchmarks.jar ImagePipelineBenchmark -p images=DATA/jpeg   # real files (up to 200)
 * java -jar bench/target/benchmarks.jar ImagePipelineBenchmark -p decoder=imageio    # the fallback decoder
 * java -jar bench/target/benchmarks.jar 'ImagePipelineBenchmark.(decode|trainTransform)$' -p source=offheap,mapped
 * </pre>
 *
 * <p>{@code source=mapped} reads the JPEGs as slices of one memory-mapped file (a tar shard's
 * members), which the decode session copies into its own buffer before libjpeg-turbo sees them
 * (a shard cut short under its map must not fault inside native code): against
 * {@code source=offheap}, what that copy costs per image.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-modules", "jdk.incubator.vector"})
public class ImagePipelineBenchmark {
    /** A folder of JPEGs (searched recursively), or empty for 50 generated ones. */
    @Param("")
    public String images;

    /** {@code turbo} (libjpeg-turbo, ImageIO as the fallback) or {@code imageio}. */
    @Param("turbo")
    public String decoder;

    /** {@code offheap} (each JPEG in memory of its own) or {@code mapped} (slices of one mapped file). */
    @Param("offheap")
    public String source;

    private Path mappedFile;

    private Arena arena;
    private List<MemorySegment> jpegs;
    private ImageDecoder imageDecoder;
    private DecodeSession session;
    private ImagePipeline resize;
    private ImagePipeline resizeDct;
    private ImagePipeline train;
    private ImagePipeline trainNoDct;
    private ImagePipeline trainWhole;
    private Tensor slot;
    private int next;
    private long sample;

    @Setup
    public void setUp() throws IOException {
        arena = Arena.ofShared();
        jpegs = new ArrayList<>();
        List<byte[]> files = images.isEmpty() ? generate(50, 1234) : read(Path.of(images), 200);
        if (source.equals("mapped")) {
            mappedFile = Files.createTempFile("stoker-bench", ".jpegs");
            long[] offsets = new long[files.size() + 1];
            try (FileChannel ch = FileChannel.open(mappedFile, StandardOpenOption.WRITE)) {
                for (int i = 0; i < files.size(); i++) {
                    ch.write(ByteBuffer.wrap(files.get(i)));
                    offsets[i + 1] = offsets[i] + files.get(i).length;
                }
            }
            MemorySegment map;
            try (FileChannel ch = FileChannel.open(mappedFile, StandardOpenOption.READ)) {
                map = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            }
            for (int i = 0; i < files.size(); i++) {
                jpegs.add(map.asSlice(offsets[i], offsets[i + 1] - offsets[i]));
            }
        } else {
            for (byte[] b : files) {
                MemorySegment m = arena.allocate(b.length);
                MemorySegment.copy(MemorySegment.ofArray(b), 0, m, 0, b.length);
                jpegs.add(m);
            }
        }
        imageDecoder = ImageDecoder.create(DecodeOptions.defaults().withUseTurboJpeg(decoder.equals("turbo")));
        session = imageDecoder.session();
        resize = ImagePipeline.builder().decoder(imageDecoder).add(Resize.to(224, 224)).dctScaling(false).build();
        resizeDct = ImagePipeline.builder().decoder(imageDecoder).add(Resize.to(224, 224)).build();
        train = ImagePipeline.builder().decoder(imageDecoder).add(new RandomResizedCrop(224))
                .add(new RandomHorizontalFlip()).build();
        trainNoDct = ImagePipeline.builder().decoder(imageDecoder).add(new RandomResizedCrop(224))
                .add(new RandomHorizontalFlip()).exact().build();
        trainWhole = ImagePipeline.builder().decoder(imageDecoder).add(new RandomResizedCrop(224))
                .add(new RandomHorizontalFlip()).cropDecode(false).build();
        // The slot is row 5 of a batch, as in a loader.
        slot = Tensor.allocate(arena, DType.F32, Shape.of(64, 3, 224, 224)).select(5);
    }

    @TearDown
    public void tearDown() throws IOException {
        session.close();
        for (ImagePipeline p : List.of(resize, resizeDct, train, trainNoDct, trainWhole)) {
            p.close();
        }
        imageDecoder.close();
        arena.close();
        if (mappedFile != null) {
            Files.deleteIfExists(mappedFile);
        }
    }

    private MemorySegment nextJpeg() {
        MemorySegment m = jpegs.get(next);
        next = next + 1 == jpegs.size() ? 0 : next + 1;
        return m;
    }

    /** (a) Decode to 8-bit RGB in the session's reused buffer. */
    @Benchmark
    public int decode() {
        return session.decode(nextJpeg(), "bench").width();
    }

    /** (b) Decode, resize to 224x224 (bilinear, antialiased), normalize into the slot. */
    @Benchmark
    public Tensor decodeResize224() {
        resize.apply(nextJpeg(), "bench", slot, null);
        return slot;
    }

    /** (c) As (b), decoding at 1/2, 1/4 or 1/8 where the image stays at least 224x224. */
    @Benchmark
    public Tensor decodeDctScaledResize224() {
        resizeDct.apply(nextJpeg(), "bench", slot, null);
        return slot;
    }

    /**
     * (d) Decode + W3's training transform into the slot (with DCT scaling where a crop allows
     * it, and only the crop decoded where that pays).
     */
    @Benchmark
    public Tensor trainTransform() {
        train.apply(nextJpeg(), "bench", slot, SampleRandom.of(1, 0, sample++));
        return slot;
    }

    /** (d) exact: every image decoded whole at full size, the same pixels as torchvision with PIL. */
    @Benchmark
    public Tensor trainTransformNoDct() {
        trainNoDct.apply(nextJpeg(), "bench", slot, SampleRandom.of(1, 0, sample++));
        return slot;
    }

    /** (d) with DCT scaling but every image decoded whole: what decoding only the crop saves, against (d). */
    @Benchmark
    public Tensor trainTransformWholeDecode() {
        trainWhole.apply(nextJpeg(), "bench", slot, SampleRandom.of(1, 0, sample++));
        return slot;
    }

    private static List<byte[]> read(Path root, int max) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            List<byte[]> out = new ArrayList<>();
            for (Path p : files.filter(f -> f.toString().toLowerCase().endsWith(".jpg")).sorted().limit(max).toList()) {
                out.add(Files.readAllBytes(p));
            }
            if (out.isEmpty()) {
                throw new IOException("no .jpg files under " + root);
            }
            return out;
        }
    }

    /** W3-like pictures: a tinted gradient, a few filled shapes, noise of sigma 12; JPEG quality 90. */
    static List<byte[]> generate(int n, long seed) throws IOException {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<byte[]> out = new ArrayList<>(n);
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        for (int i = 0; i < n; i++) {
            int w = rnd.nextInt(400, 641);
            int h = rnd.nextInt(300, 481);
            BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_3BYTE_BGR);
            double[] a = {rnd.nextDouble(-0.3, 0.3), rnd.nextDouble(-0.3, 0.3), rnd.nextDouble(-0.3, 0.3)};
            double[] b = {rnd.nextDouble(-0.3, 0.3), rnd.nextDouble(-0.3, 0.3), rnd.nextDouble(-0.3, 0.3)};
            int[] tint = {(i * 37) % 256, (i * 91) % 256, (i * 53) % 256};
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    int rgb = 0;
                    for (int c = 0; c < 3; c++) {
                        int v = (int) Math.max(0, Math.min(255, 0.5 * tint[c] + a[c] * x + b[c] * y + 40));
                        rgb = (rgb << 8) | v;
                    }
                    img.setRGB(x, y, rgb);
                }
            }
            Graphics2D g = img.createGraphics();
            for (int s = rnd.nextInt(4, 12); s > 0; s--) {
                g.setColor(new Color(rnd.nextInt(256), rnd.nextInt(256), rnd.nextInt(256)));
                int x0 = rnd.nextInt(w);
                int y0 = rnd.nextInt(h);
                if (rnd.nextBoolean()) {
                    g.fillOval(x0, y0, rnd.nextInt(w - x0 + 1), rnd.nextInt(h - y0 + 1));
                } else {
                    g.fillRect(x0, y0, rnd.nextInt(w - x0 + 1), rnd.nextInt(h - y0 + 1));
                }
            }
            g.dispose();
            byte[] px = ((java.awt.image.DataBufferByte) img.getRaster().getDataBuffer()).getData();
            for (int k = 0; k < px.length; k++) {
                int v = (px[k] & 0xFF) + (int) Math.round(rnd.nextGaussian() * 12);
                px[k] = (byte) Math.max(0, Math.min(255, v));
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            ImageWriteParam param = writer.getDefaultWriteParam();
            param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            param.setCompressionQuality(0.9f);
            try (MemoryCacheImageOutputStream ios = new MemoryCacheImageOutputStream(bytes)) {
                writer.setOutput(ios);
                writer.write(null, new IIOImage(img, null, null), param);
            }
            out.add(bytes.toByteArray());
        }
        writer.dispose();
        return out;
    }
}
