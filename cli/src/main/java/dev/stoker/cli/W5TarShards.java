package dev.stoker.cli;

import dev.stoker.data.Dataset;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.formats.folder.ImageBytes;
import dev.stoker.formats.folder.ImageFolder;
import dev.stoker.formats.tar.ShardIndex;
import dev.stoker.formats.tar.ShardWriter;
import dev.stoker.formats.tar.TarSample;
import dev.stoker.formats.tar.TarShardDataset;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.EncodedImage;
import dev.stoker.vision.ImagePipeline;
import dev.stoker.vision.ImageSample;
import dev.stoker.vision.JpegStream;
import dev.stoker.vision.transform.SampleRandom;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * W5, tar-shards: the W3 images as 8 WebDataset shards ({@code <key>.jpg}, {@code <key>.cls}),
 * streamed: worker {@code w} of {@code W} reads its share of the shards in order (no shard
 * shuffle), through a per-worker shuffle buffer of 1000 raw samples; then each {@code jpg} is
 * decoded with W3's training transform and {@code cls} (ASCII decimal) is the label. Batch 64
 * within each worker's stream, one epoch.
 *
 * <p>Rows: {@code nw=0} and {@code nw=2} on the general path (an {@link ImageSample} per
 * sample, stacked by the default collate, PyTorch's path); the same two with {@code fill}, where
 * a {@link JpegStream} decodes each image straight into its row of the batch (no per-sample
 * tensor, no stack); and with {@code raw}: samples read, grouped, shuffled and batched without
 * decoding (a batch of labels and member sizes), the tar-read cost alone.
 *
 * <p>Reads {@code DATA/shards/*.tar} (the peers' {@code gen_data.py}). Without them, packs
 * equivalent shards once into the cache folder from W3's generated image folder (the files in
 * a seeded shuffled order, 8 shards of equal count, keys the file numbers).
 */
public final class W5TarShards implements Workload {
    static final int SAMPLES = 2000;
    static final int SHARDS = 8;
    static final int BATCH = 64;
    static final int SIZE = 224;
    static final int SHUFFLE_BUFFER = 1000;
    static final String FOLDER = "shards";
    static final String GENERATED = "shards-w5-generated";
    static final List<Integer> WORKERS = List.of(0, 2);

    private final WorkloadSpec spec;
    private List<String> shards;
    private long shardSamples = -1;
    private ImagePipeline pipeline;

    /** W5 as defined. */
    public W5TarShards() {
        this(SAMPLES);
    }

    /** A W5 whose generated shards (when the data folder has none) hold {@code samples} images, for tests. */
    public W5TarShards(int samples) {
        this.spec = new WorkloadSpec("W5", "tar-shards", WorkloadSpec.Data.MADE_IF_MISSING, 1, BATCH, samples,
                3L * SIZE * SIZE * Float.BYTES);
    }

    @Override
    public String missingFrom(Path folder) {
        try {
            if (Files.isDirectory(folder.resolve(FOLDER)) && !tarsIn(folder.resolve(FOLDER)).isEmpty()) {
                return null;
            }
        } catch (IOException e) {
            return "readable .tar shards in " + FOLDER + "/ (" + e.getMessage() + ")";
        }
        return ".tar shards in " + FOLDER + "/";
    }

    @Override
    public WorkloadSpec spec() {
        return spec;
    }

    @Override
    public String summary() {
        return "8 tar shards streamed, shuffle buffer 1000, jpg decoded + RandomResizedCrop 224 + flip + Normalize"
                + " into (64,3,224,224) f32, cls as label; raw rows: no decode";
    }

    /** The samples the shards hold, once they are counted; the generated shards' count before. */
    @Override
    public long samplesPerEpoch() {
        return shardSamples >= 0 ? shardSamples : spec.samplesPerEpoch();
    }

    /** Every decoded row first (general, then fill), then every raw row. */
    @Override
    public List<Configuration> configurations() {
        List<Configuration> out = new ArrayList<>(Configuration.rows(WORKERS, Configuration.GENERAL,
                Configuration.FILL));
        out.addAll(Configuration.rows(WORKERS, Configuration.GENERAL.withRaw()));
        return out;
    }

    @Override
    public DataLoader<?> newLoader(Configuration c, long seed, Path data) {
        if (c.batched() || c.ioConcurrency() > 0 || (c.fill() && c.raw())) {
            throw new IllegalArgumentException("W5 streams samples: it has no batched or I/O-mode rows, and raw rows"
                    + " do not decode, so do not fill; not " + c);
        }
        TarShardDataset tar = TarShardDataset.builder(shards(data)).shuffleBuffer(SHUFFLE_BUFFER).build();
        if (c.raw()) {
            return loader(new Mapped<>(tar, ctx -> RawSample::of), c, seed);
        }
        ImagePipeline p = pipeline();
        if (c.fill()) {
            return loader(JpegStream.of(tar, s -> new EncodedImage(s.segment("jpg"), label(s), s.url() + "#" + s.key()),
                    p), c, seed);
        }
        return loader(new Mapped<>(tar, ctx -> new Decoder(p, ctx)), c, seed);
    }

    private static <T> DataLoader<T> loader(StreamingDataset<T> ds, Configuration c, long seed) {
        return c.applyTo(DataLoader.builder(ds)) // fill rows: no collate; the others: stacked, as PyTorch does
                .batchSize(BATCH)
                .seed(seed)
                .build();
    }

    private synchronized ImagePipeline pipeline() {
        if (pipeline == null) {
            pipeline = ImagePipeline.train(SIZE);
            System.err.println("W5: decoder: " + pipeline.decoder().describe());
        }
        return pipeline;
    }

    /** The shards, found (or packed) and counted on the first call. */
    private synchronized List<String> shards(Path data) {
        if (shards == null) {
            try {
                Path folder = data != null ? data.resolve(FOLDER) : null;
                List<Path> found = folder != null && Files.isDirectory(folder) ? tarsIn(folder) : List.of();
                if (found.isEmpty()) {
                    found = tarsIn(generated(spec.samplesPerEpoch()));
                }
                long count = 0;
                for (Path p : found) {
                    count += ShardIndex.scan(p).sampleCount(); // reads the headers: also warms the page cache
                }
                shardSamples = count;
                shards = found.stream().map(Path::toString).toList();
                System.err.println("W5: " + found.size() + " shards in " + found.getFirst().getParent() + ", "
                        + count + " samples");
            } catch (IOException e) {
                throw new UncheckedIOException("W5: cannot read its shards: " + e.getMessage(), e);
            }
        }
        return shards;
    }

    private static List<Path> tarsIn(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".tar") && Files.isRegularFile(p))
                    .sorted().toList();
        }
    }

    @Override
    public synchronized void close() {
        if (pipeline != null) {
            pipeline.close();
            pipeline = null;
        }
    }

    /** The cache folder's W5-like shards, packed once from W3's generated images. */
    private static Path generated(int samples) throws IOException {
        String what = String.format("no %s folder in the data folder; packing %d images as %d shards", FOLDER,
                samples, SHARDS);
        return CacheData.folder("W5", GENERATED + "-" + samples, what,
                folder -> pack(ImageFolder.scan(W3JpegFolder.generated(samples)).dataset(), folder));
    }

    /** Writes {@code images} in a seeded shuffled order into {@link #SHARDS} shards of equal count, as gen_data.py. */
    static void pack(Dataset<ImageBytes> images, Path folder) {
        int n = Math.toIntExact(images.size());
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        SplittableRandom rnd = new SplittableRandom(1234 + 3);
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int perShard = Math.max(1, (n + SHARDS - 1) / SHARDS);
        try (ShardWriter w = ShardWriter.builder(folder.resolve("shard-%06d.tar").toString())
                .maxSamples(perShard).writeIndex(false).build()) {
            for (int j : order) {
                ImageBytes img = images.get(j);
                Map<String, byte[]> fields = new LinkedHashMap<>();
                fields.put("jpg", img.bytes());
                fields.put("cls", Long.toString(img.label()).getBytes(StandardCharsets.US_ASCII));
                w.write(String.format("%06d", j), fields);
            }
            w.commit();
        }
    }

    /** A tar sample's label, from its {@code cls} member (ASCII decimal, as WebDataset writes it). */
    static long label(TarSample s) {
        MemorySegment cls = s.segment("cls");
        long v = 0;
        int digits = 0;
        for (long i = 0; i < cls.byteSize(); i++) {
            byte b = cls.get(ValueLayout.JAVA_BYTE, i);
            if (b >= '0' && b <= '9' && digits < 18) {
                v = v * 10 + (b - '0');
                digits++;
            } else if (!(b == ' ' || b == '\n' || b == '\r' || b == '\t') || digits == 18) {
                throw new IllegalArgumentException("sample \"" + s.key() + "\" of " + s.url()
                        + ": cls is not a decimal class index (byte " + i + " is " + (b & 0xFF) + ")");
            }
        }
        if (digits == 0) {
            throw new IllegalArgumentException("sample \"" + s.key() + "\" of " + s.url() + ": cls is empty");
        }
        return v;
    }

    /** A raw row's sample: the label and the sample's byte count, no decode. */
    record RawSample(long label, long bytes) {
        static RawSample of(TarSample s) {
            long bytes = 0;
            for (MemorySegment f : s.fields().values()) {
                bytes += f.byteSize();
            }
            return new RawSample(W5TarShards.label(s), bytes);
        }
    }

    /**
     * Decodes a worker's samples in stream order; the n-th sample's crop and flip draw from
     * {@code SampleRandom.of(seed, epoch, globalWorkerId << 32 | n)}, so a run is reproducible.
     */
    private static final class Decoder implements Function<TarSample, ImageSample> {
        private final ImagePipeline pipeline;
        private final WorkerContext ctx;
        private final long base;
        private long n;

        Decoder(ImagePipeline pipeline, WorkerContext ctx) {
            this.pipeline = pipeline;
            this.ctx = ctx;
            this.base = (long) ctx.globalWorkerId() << 32;
        }

        @Override
        public ImageSample apply(TarSample s) {
            Shape shape = pipeline.outputShape();
            Tensor image = new Tensor(MemorySegment.ofArray(new float[Math.toIntExact(shape.elements())]), DType.F32, shape);
            pipeline.apply(s.segment("jpg"), s.url() + "#" + s.key(), image,
                    SampleRandom.of(ctx.seed(), ctx.epoch(), base | n++));
            return new ImageSample(image, label(s));
        }
    }

    /** A streaming dataset whose samples are another's, each mapped by a per-worker function. */
    private record Mapped<T>(TarShardDataset source, Function<WorkerContext, Function<TarSample, T>> perWorker)
            implements StreamingDataset<T> {
        @Override
        public SampleStream<T> open(WorkerContext context) {
            SampleStream<TarSample> in = source.open(context);
            Function<TarSample, T> f = perWorker.apply(context);
            return new SampleStream<>() {
                public boolean hasNext() {
                    return in.hasNext();
                }

                public T next() {
                    return f.apply(in.next());
                }

                public void close() {
                    in.close();
                }
            };
        }

        @Override
        public String name() {
            return source.name();
        }
    }
}
