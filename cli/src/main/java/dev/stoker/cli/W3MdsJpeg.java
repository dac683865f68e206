package dev.stoker.cli;

import dev.stoker.formats.folder.ImageBytes;
import dev.stoker.formats.folder.ImageFolder;
import dev.stoker.formats.mds.MdsDataset;
import dev.stoker.formats.mds.MdsWriter;
import dev.stoker.loader.DataLoader;
import dev.stoker.vision.EncodedImage;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.JpegDataset;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * W3-MDS: W3 with its JPEGs in MosaicML Streaming's MDS shards instead of a folder: columns
 * {@code jpg} (jpeg) and {@code cls} (int), read by {@link MdsDataset} from the memory map, the
 * same transform and batches as W3. Its peer is Streaming's own {@code StreamingDataset} under
 * PyTorch's DataLoader ({@code bench/python/mds_peer.py}), on the same shards.
 *
 * <p>Reads {@code DATA/mds-jpeg}. Without it, writes it once from W3's images ({@code DATA/jpeg}
 * or W3's generated folder) with {@link MdsWriter}, which writes what Streaming's MDSWriter
 * writes; the peer then reads the same files.
 */
public final class W3MdsJpeg implements Workload {
    static final String FOLDER = "mds-jpeg";

    private final WorkloadSpec spec;
    private MdsDataset mds;
    private ImagePipeline pipeline;
    private JpegDataset<?> dataset;

    /** W3-MDS as defined: W3's 2000 images. */
    public W3MdsJpeg() {
        this(W3JpegFolder.SAMPLES);
    }

    /** A W3-MDS of {@code samples} images, for tests. */
    public W3MdsJpeg(int samples) {
        this.spec = new WorkloadSpec("W3-MDS", "jpeg-mds", WorkloadSpec.Data.MADE_IF_MISSING, 1, ImageRows.BATCH,
                samples, 3L * W3JpegFolder.SIZE * W3JpegFolder.SIZE * Float.BYTES);
    }

    /** Its shards, or W3's image folder to write them from. */
    @Override
    public String missingFrom(Path folder) {
        return Files.isRegularFile(folder.resolve(FOLDER).resolve("index.json"))
                || Files.isDirectory(folder.resolve(W3JpegFolder.FOLDER)) ? null
                : "MDS shards in " + FOLDER + "/ (or an image folder " + W3JpegFolder.FOLDER + "/ to write them from)";
    }

    @Override
    public WorkloadSpec spec() {
        return spec;
    }

    @Override
    public String summary() {
        return "W3's JPEGs in MDS shards (jpg, cls), RandomResizedCrop 224 + flip + Normalize into (64,3,224,224)"
                + " f32, shuffled";
    }

    /** The images found, once the shards are open. */
    @Override
    public long samplesPerEpoch() {
        return mds != null ? mds.size() : spec.samplesPerEpoch();
    }

    @Override
    public List<Configuration> configurations() {
        return ImageRows.configurations();
    }

    @Override
    public DataLoader<?> newLoader(Configuration c, long seed, Path data) {
        return ImageRows.loader("W3-MDS", dataset(data), c, seed);
    }

    @Override
    public void prepare(Path data) {
        dataset(data);
    }

    private synchronized JpegDataset<?> dataset(Path data) {
        if (dataset == null) {
            try {
                Path dir = shards(data, spec.samplesPerEpoch());
                mds = MdsDataset.open(dir);
                pipeline = ImagePipeline.train(W3JpegFolder.SIZE);
                System.err.println("W3-MDS: " + dir + ", " + mds.size() + " images in " + mds.shards()
                        + " shards; decoder: " + pipeline.decoder().describe());
                dataset = JpegDataset.of(mds, s -> new EncodedImage(s.segment("jpg"), s.longValue("cls"),
                        "mds:" + s.index()), pipeline);
            } catch (IOException e) {
                throw new UncheckedIOException("W3-MDS: cannot make or read its shards: " + e.getMessage(), e);
            }
        }
        return dataset;
    }

    /** {@code DATA/mds-jpeg}, written from W3's images when missing. */
    static Path shards(Path data, int samples) throws IOException {
        Path dir = data.resolve(FOLDER);
        if (Files.isRegularFile(dir.resolve("index.json"))) {
            return dir;
        }
        Path images = Files.isDirectory(data.resolve(W3JpegFolder.FOLDER)) ? data.resolve(W3JpegFolder.FOLDER)
                : W3JpegFolder.generated(samples);
        String what = "no " + FOLDER + " in the data folder; writing W3's images from " + images + " as MDS";
        return CacheData.folder("W3-MDS", dir, what, out -> {
            var folder = ImageFolder.scan(images).dataset();
            try (MdsWriter w = MdsWriter.builder(out).column("jpg", "jpeg").column("cls", "int").open()) {
                for (long i = 0; i < Math.min(samples, folder.size()); i++) {
                    ImageBytes image = folder.get(i);
                    w.write(Map.of("jpg", image.bytes(), "cls", image.label()));
                }
                w.commit();
            }
        });
    }

    @Override
    public synchronized void close() {
        if (pipeline != null) {
            pipeline.close();
            pipeline = null;
        }
        if (mds != null) {
            mds.close();
            mds = null;
        }
        dataset = null;
    }
}
