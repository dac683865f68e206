package dev.stoker.cli;

import dev.stoker.data.Dataset;
import dev.stoker.data.Datasets;
import dev.stoker.formats.lmdb.LmdbDataset;
import dev.stoker.formats.lmdb.LmdbSample;
import dev.stoker.loader.DataLoader;
import dev.stoker.vision.EncodedImage;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.ImageSample;
import dev.stoker.vision.JpegDataset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;

/**
 * W8, lmdb: JPEG bytes from the LMDB environment {@code DATA/lmdb} (keys {@code "%06d"},
 * {@code __len__}, {@code __labels__}: the PyTorch peers' {@code gen_data.py --only lmdb}),
 * opened read-only without lock or readahead, each value decoded and given W3's training
 * transform; batch 64, shuffled, one epoch.
 *
 * <p>Needs the environment: it does not make one. Rows as W3's: the general path ({@code get}
 * gives an {@link ImageSample}, the default collate stacks them) and {@code fill} (each image
 * written straight into its row of the batch), with 0 and 2 workers (the workload's), and 1 and 4.
 * The JVM needs lmdbjava's flags ({@code LmdbEnvironment.JVM_FLAGS}); the launcher passes them.
 */
public final class W8Lmdb implements Workload {
    static final int SAMPLES = 2000;
    static final int BATCH = ImageRows.BATCH;
    static final int SIZE = 224;
    static final String FOLDER = "lmdb";

    private final WorkloadSpec spec;
    private LmdbDataset lmdb;
    private ImagePipeline pipeline;
    private JpegDataset<LmdbSample> dataset;

    /** W8 as defined. */
    public W8Lmdb() {
        this(SAMPLES);
    }

    /** A W8 over the first {@code samples} values, for tests (the environment must hold that many). */
    public W8Lmdb(int samples) {
        this.spec = new WorkloadSpec("W8", "lmdb", WorkloadSpec.Data.REQUIRED, 1, BATCH, samples,
                3L * SIZE * SIZE * Float.BYTES);
    }

    @Override
    public WorkloadSpec spec() {
        return spec;
    }

    @Override
    public String summary() {
        return "JPEG bytes from LMDB (" + FOLDER + "/, keys %06d), RandomResizedCrop 224 + flip + Normalize"
                + " into (64,3,224,224) f32, shuffled";
    }

    @Override
    public List<Configuration> configurations() {
        return ImageRows.configurations();
    }

    @Override
    public DataLoader<?> newLoader(Configuration c, long seed, Path data) {
        return ImageRows.loader("W8", dataset(data), c, seed);
    }

    /** The environment, opened on the first call and kept for every repetition. */
    @Override
    public void prepare(Path data) {
        dataset(data);
    }

    private synchronized JpegDataset<LmdbSample> dataset(Path data) {
        if (dataset == null) {
            Path env = data == null ? null : data.resolve(FOLDER);
            if (env == null || !Files.isDirectory(env)) {
                throw new IllegalArgumentException("W8 reads the LMDB environment " + FOLDER + "/ from the data folder"
                        + " (--data DIR), and there is none" + (env == null ? "" : " at " + env) + "; make it with "
                        + "/usr/bin/python3 ../shared/peers/gen_data.py --root DIR --only jpeg,lmdb");
            }
            int samples = spec.samplesPerEpoch();
            lmdb = LmdbDataset.open(env);
            long held = lmdb.size();
            if (held < samples) {
                lmdb.close();
                lmdb = null;
                throw new IllegalArgumentException("W8: " + env + " has " + held + " values, fewer than the "
                        + samples + " asked for");
            }
            Dataset<LmdbSample> values = lmdb.size() == samples
                    ? lmdb : Datasets.subset(lmdb, LongStream.range(0, samples).toArray());
            pipeline = ImagePipeline.train(SIZE);
            System.err.println("W8: " + env + ", " + values.size() + " images; decoder: " + pipeline.decoder().describe());
            dataset = JpegDataset.of(values, s -> EncodedImage.of(s.value(), s.label(), s.key()), pipeline);
        }
        return dataset;
    }

    /** Closes the pipeline and the environment; a later loader opens them again. */
    @Override
    public synchronized void close() {
        if (pipeline != null) {
            pipeline.close();
            pipeline = null;
        }
        if (lmdb != null) {
            lmdb.close();
            lmdb = null;
        }
        dataset = null;
    }
}
