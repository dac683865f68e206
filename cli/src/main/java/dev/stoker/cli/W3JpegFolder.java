package dev.stoker.cli;

import dev.stoker.data.Dataset;
import dev.stoker.data.Datasets;
import dev.stoker.formats.folder.ImageFolder;
import dev.stoker.formats.folder.LabeledFile;
import dev.stoker.loader.DataLoader;
import dev.stoker.vision.ImageFile;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.ImageSample;
import dev.stoker.vision.JpegDataset;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.FileImageOutputStream;

/**
 * W3, jpeg-folder: torchvision's {@code ImageFolder} over {@code DATA/jpeg} (2000 JPEGs, 10
 * classes), each decoded and given the ImageNet training transform (RandomResizedCrop 224,
 * horizontal flip, ToTensor, Normalize); batch 64, shuffled, one epoch.
 *
 * <p>Decoding is libjpeg-turbo's where the system has it (ImageIO otherwise), with DCT scaling
 * where a crop is at least twice the output, as the workload definition allows. Rows: the
 * general path ({@code get} gives an {@link ImageSample}, the default collate stacks them, as
 * PyTorch does) and {@code fill} (each image written, normalized, straight into its row of the
 * batch), with 0, 1, 2 and 4 workers.
 *
 * <p>Without {@code DATA/jpeg}, makes a W3-like folder once in the cache folder (gradients,
 * shapes and noise, 400-640 x 300-480, quality 90, seeded; about a minute): the same sizes and
 * kind of content as the peers' {@code gen_data.py}, not the same pixels.
 */
public final class W3JpegFolder implements Workload {
    static final int SAMPLES = 2000;
    static final int CLASSES = 10;
    static final int BATCH = ImageRows.BATCH;
    static final int SIZE = 224;
    static final String FOLDER = "jpeg";
    static final String GENERATED = "jpeg-w3-generated";

    private final WorkloadSpec spec;
    private final Supplier<ImagePipeline> pipelines;
    private final String summary;
    private ImagePipeline pipeline;
    private JpegDataset<LabeledFile> dataset;

    /** W3 as defined. */
    public W3JpegFolder() {
        this(SAMPLES);
    }

    /** A W3 over the first {@code samples} files (or a generated folder of that many), for tests. */
    public W3JpegFolder(int samples) {
        this(new WorkloadSpec("W3", "jpeg-folder", WorkloadSpec.Data.MADE_IF_MISSING, 1, BATCH, samples,
                3L * SIZE * SIZE * Float.BYTES), () -> ImagePipeline.train(SIZE),
                "ImageFolder of JPEGs, RandomResizedCrop 224 + flip + Normalize into (64,3,224,224) f32, shuffled");
    }

    /** W3's data and loader with another spec and per-image pipeline: {@link W3Recipe}. */
    W3JpegFolder(WorkloadSpec spec, Supplier<ImagePipeline> pipelines, String summary) {
        this.spec = spec;
        this.pipelines = pipelines;
        this.summary = summary;
    }

    @Override
    public String missingFrom(Path folder) {
        return Files.isDirectory(folder.resolve(FOLDER)) ? null : "an image folder " + FOLDER + "/";
    }

    @Override
    public WorkloadSpec spec() {
        return spec;
    }

    @Override
    public String summary() {
        return summary;
    }

    /** The images found, once the folder is read: a folder may hold fewer than asked for. */
    @Override
    public long samplesPerEpoch() {
        return dataset != null ? dataset.size() : spec.samplesPerEpoch();
    }

    @Override
    public List<Configuration> configurations() {
        return ImageRows.configurations();
    }

    @Override
    public DataLoader<?> newLoader(Configuration c, long seed, Path data) {
        return ImageRows.loader(spec.name(), dataset(data), c, seed);
    }

    @Override
    public void prepare(Path data) {
        dataset(data);
    }

    private synchronized JpegDataset<LabeledFile> dataset(Path data) {
        if (dataset == null) {
            try {
                int samples = spec.samplesPerEpoch();
                Path root = data != null && Files.isDirectory(data.resolve(FOLDER)) ? data.resolve(FOLDER) : generated(samples);
                // the pipeline first: its decoder loads libjpeg-turbo in the background while the folder is scanned
                pipeline = pipelines.get();
                // the files are read by the decoders, into their own buffers (no array per image)
                Dataset<LabeledFile> folder = ImageFolder.scan(root).fileDataset();
                Dataset<LabeledFile> files = folder.size() > samples
                        ? Datasets.subset(folder, LongStream.range(0, samples).toArray()) : folder;
                System.err.println(spec.name() + ": " + root + ", " + files.size() + " images; decoder: " + pipeline.decoder().describe());
                dataset = JpegDataset.ofFiles(files, f -> new ImageFile(f.path(), f.label()), pipeline);
            } catch (IOException e) {
                throw new UncheckedIOException("W3: cannot read its image folder: " + e.getMessage(), e);
            }
        }
        return dataset;
    }

    @Override
    public synchronized void close() {
        if (pipeline != null) {
            pipeline.close();
            pipeline = null;
            dataset = null;
        }
    }

    /** The cache folder's W3-like image folder, made once. */
    static Path generated(int samples) throws IOException {
        String what = String.format("no %s folder in the data folder; writing %d W3-like JPEGs", FOLDER, samples);
        return CacheData.folder("W3", GENERATED + "-" + samples, what, folder -> {
            SplittableRandom rnd = new SplittableRandom(1234);
            ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
            try {
                int perClass = Math.max(1, (samples + CLASSES - 1) / CLASSES);
                for (int i = 0; i < samples; i++) {
                    Path dir = folder.resolve(String.format("class_%02d", i / perClass));
                    Files.createDirectories(dir);
                    write(writer, picture(rnd, i / perClass), dir.resolve(String.format("%06d.jpg", i)));
                }
            } finally {
                writer.dispose();
            }
        });
    }

    /** A tinted gradient with 4-11 filled shapes and Gaussian noise (sigma 12), like gen_data.py's. */
    static BufferedImage picture(SplittableRandom rnd, int cls) {
        int w = rnd.nextInt(400, 641);
        int h = rnd.nextInt(300, 481);
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_3BYTE_BGR);
        byte[] px = ((DataBufferByte) img.getRaster().getDataBuffer()).getData();
        int[] tint = {(cls * 37) % 256, (cls * 91) % 256, (cls * 53) % 256};
        double[] a = new double[3];
        double[] b = new double[3];
        double[] base = new double[3];
        for (int c = 0; c < 3; c++) {
            a[c] = rnd.nextDouble(-0.3, 0.3);
            b[c] = rnd.nextDouble(-0.3, 0.3);
            base[c] = 0.5 * tint[c] + rnd.nextDouble(0, 80);
        }
        for (int y = 0, i = 0; y < h; y++) {
            for (int x = 0; x < w; x++, i += 3) {
                for (int c = 0; c < 3; c++) {  // BGR order in the raster
                    px[i + 2 - c] = (byte) Math.clamp((long) (base[c] + a[c] * x + b[c] * y), 0, 255);
                }
            }
        }
        Graphics2D g = img.createGraphics();
        for (int s = rnd.nextInt(4, 12); s > 0; s--) {
            g.setColor(new Color(rnd.nextInt(256), rnd.nextInt(256), rnd.nextInt(256)));
            int x0 = rnd.nextInt(w);
            int y0 = rnd.nextInt(h);
            int dw = rnd.nextInt(w - x0 + 1);
            int dh = rnd.nextInt(h - y0 + 1);
            if (rnd.nextBoolean()) {
                g.fillOval(x0, y0, dw, dh);
            } else {
                g.fillRect(x0, y0, dw, dh);
            }
        }
        g.dispose();
        for (int k = 0; k < px.length; k++) {
            px[k] = (byte) Math.clamp((px[k] & 0xFF) + Math.round(rnd.nextGaussian() * 12), 0, 255);
        }
        return img;
    }

    private static void write(ImageWriter writer, BufferedImage img, Path file) throws IOException {
        ImageWriteParam param = writer.getDefaultWriteParam();
        param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        param.setCompressionQuality(0.9f);
        try (FileImageOutputStream out = new FileImageOutputStream(file.toFile())) {
            writer.setOutput(out);
            writer.write(null, new IIOImage(img, null, null), param);
        }
    }
}
