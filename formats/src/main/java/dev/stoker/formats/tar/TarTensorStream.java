package dev.stoker.formats.tar;

import dev.stoker.data.FillableStreamingDataset;
import dev.stoker.data.ReshardableStreamingDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.data.SampleStream;
import dev.stoker.data.SampleStreams;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.formats.mmap.MapFaults;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.Stages;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Numeric WebDataset samples written straight into the batch: WebDataset's
 * {@code wds.WebDataset(urls).decode().to_tuple("npy", "cls")} without a per-sample object. Each
 * field names the member it reads and how: a {@code .npy} array ({@link Builder#npy}), an integer
 * as decimal text ({@link Builder#integer}, WebDataset's {@code .cls}), or raw little-endian
 * elements ({@link Builder#raw}). Under a loader with the default collate, each sample the source
 * streams is written into its row of the batch's pooled tensors in the worker that read it.
 *
 * <pre>{@code
 * TarTensorStream ds = TarTensorStream.builder(TarShardDataset.builder("shards-{000000..000099}.tar").build())
 *         .npy("x", "npy", DType.F32, Shape.of(80, 3000))   // a .npy member of exactly this dtype and shape
 *         .integer("label", "cls")                           // decimal text into an i64 scalar
 *         .raw("emb", "emb", DType.F16, Shape.of(768))       // 1536 bytes, little-endian
 *         .build();
 * DataLoader<TarSample> loader = DataLoader.builder(ds).batchSize(64).numWorkers(4).build();
 * // batches: {x: (64, 80, 3000) f32, label: (64) i64, emb: (64, 768) f16}
 * }</pre>
 *
 * <p>The source is any stream of {@link TarSample}s: a {@link TarShardDataset}, a
 * {@code MixedStreamingDataset} of several. Its streams are used as they are: their {@code skip}
 * (a resume passes over whole shards without reading them) and, when the source is a
 * {@link ReshardableStreamingDataset}, its resume on another number of workers or ranks.
 *
 * <p>A member that is missing or not what its field declares fails its sample with a
 * {@link TarSampleException} naming the shard, the key, the member and what was wrong; under
 * {@code onBadSample(SamplePolicy.SKIP)} the loader leaves that sample out and counts it. A loader
 * given a collate of its own gets the {@code TarSample}s as they are, without {@link #fill}.
 *
 * <p>Timing: the source's reads are {@link Stage#READ}, the parsing and copying into the batch
 * {@link Stage#DECODE}.
 */
public final class TarTensorStream implements FillableStreamingDataset<TarSample>,
        ReshardableStreamingDataset<TarSample> {
    private final StreamingDataset<TarSample> source;
    private final List<TarField> fields;
    private final SampleLayout layout;

    private TarTensorStream(StreamingDataset<TarSample> source, List<TarField> fields, SampleLayout layout) {
        this.source = source;
        this.fields = List.copyOf(fields);
        this.layout = layout;
    }

    /** A builder over {@code source}'s samples; declare at least one field. */
    public static Builder builder(StreamingDataset<TarSample> source) {
        return new Builder(Objects.requireNonNull(source, "source"));
    }

    @Override
    public SampleStream<TarSample> open(WorkerContext context) {
        return timed(source.open(context));
    }

    /** The source's resume on another layout: what is left of the epoch, as the source deals it out. */
    @Override
    public long[] cursor(long seed, long epoch, long[] start, long[] positions, boolean[] ended) {
        return reshardable().cursor(seed, epoch, start, positions, ended);
    }

    @Override
    public SampleStream<TarSample> open(WorkerContext context, long[] cursor) {
        return timed(reshardable().open(context, cursor));
    }

    @Override
    public void checkCursor(long[] cursor) {
        if (!(source instanceof ReshardableStreamingDataset<TarSample> r)) {
            throw new IllegalArgumentException("its source, " + source.name() + ", cannot go on from a cursor");
        }
        r.checkCursor(cursor);
    }

    private ReshardableStreamingDataset<TarSample> reshardable() {
        if (source instanceof ReshardableStreamingDataset<TarSample> r) {
            return r;
        }
        throw new IllegalStateException("its source, " + source.name() + ", deals its samples out to its workers'"
                + " streams and cannot deal what is left out again; resume with the same workers, rank and world size");
    }

    private static SampleStream<TarSample> timed(SampleStream<TarSample> in) {
        return SampleStreams.timedReads(in, Function.identity());
    }

    @Override
    public SampleLayout layout() {
        return layout;
    }

    /**
     * Writes each field's member of {@code sample} into its row of {@code slot}.
     *
     * @throws TarSampleException when a member is missing or is not what its field declares
     */
    @Override
    public void fill(TarSample sample, SampleSlot slot) {
        long t = Stages.start();
        try {
            for (int i = 0; i < fields.size(); i++) {
                TarField f = fields.get(i);
                MemorySegment member = sample.fields().get(f.extension());
                if (member == null) {
                    throw f.bad(sample, "missing; the sample has " + extensions(sample));
                }
                try {
                    f.write(sample, member, slot.tensor(i));
                    MapFaults.deliverPending();
                } catch (InternalError e) { // the shard was cut short under its map: name it
                    throw MappedMembers.changed(e, sample.url(), "member ." + f.extension() + " of sample \""
                            + sample.key() + "\"");
                }
            }
        } finally {
            Stages.end(Stage.DECODE, t);
        }
    }

    private static String extensions(TarSample sample) {
        if (sample.extensions().isEmpty()) {
            return "no members";
        }
        List<String> dotted = new ArrayList<>();
        for (String e : sample.extensions()) {
            dotted.add("." + e);
        }
        return String.join(", ", dotted);
    }

    /** The samples' source. */
    public StreamingDataset<TarSample> source() {
        return source;
    }

    @Override
    public String name() {
        List<String> names = layout.fields().stream().map(SampleLayout.Field::name).toList();
        return "tensors (" + String.join(", ", names) + ") of " + source.name();
    }

    @Override
    public String toString() {
        return name();
    }

    /**
     * The fields of a {@link TarTensorStream}, in the order they are declared: the batch map's
     * order (or the tuple's, with {@link #tuple()}).
     */
    public static final class Builder {
        private final StreamingDataset<TarSample> source;
        private final List<TarField> fields = new ArrayList<>();
        private boolean tuple;

        private Builder(StreamingDataset<TarSample> source) {
            this.source = source;
        }

        /**
         * A field read from a {@code .npy} member ({@code np.save}, any format version, either
         * byte order), whose dtype and shape must be exactly {@code dtype} and {@code shape}.
         *
         * @param name      the field's name in the batch
         * @param extension the member's extension without the dot, e.g. {@code "npy"} or {@code "x.npy"}
         */
        public Builder npy(String name, String extension, DType dtype, Shape shape) {
            Objects.requireNonNull(dtype, "dtype");
            if (dtype == DType.BF16) {
                throw new IllegalArgumentException("field " + name + ": NumPy has no bfloat16 dtype, so no .npy member"
                        + " holds bf16; read it with raw(...) or declare the dtype the arrays were saved with");
            }
            return add(new NpyField(new SampleLayout.Field(checkName(name), dtype, Objects.requireNonNull(shape,
                    "shape")), checkExtension(name, extension)));
        }

        /** A field read from a member of decimal text, WebDataset's {@code .cls}, into an i64 scalar. */
        public Builder integer(String name, String extension) {
            return integer(name, extension, DType.I64);
        }

        /**
         * A field read from a member of decimal text into a scalar of {@code dtype}, an integer
         * type (i8, u8, i16, u16, i32, i64); a value outside its range fails the sample.
         */
        public Builder integer(String name, String extension, DType dtype) {
            Objects.requireNonNull(dtype, "dtype");
            if (!IntegerField.holds(dtype)) {
                throw new IllegalArgumentException("field " + name + ": integer text is read into an integer dtype"
                        + " (i8, u8, i16, u16, i32, i64), not " + dtype);
            }
            return add(new IntegerField(new SampleLayout.Field(checkName(name), dtype, Shape.scalar()),
                    checkExtension(name, extension)));
        }

        /**
         * A field read from a member that is exactly the field's elements, little-endian, in C
         * order ({@code a.astype('<f2').tobytes()}): {@code shape.elements() * dtype.byteSize()}
         * bytes, no header.
         */
        public Builder raw(String name, String extension, DType dtype, Shape shape) {
            return add(new RawField(new SampleLayout.Field(checkName(name), Objects.requireNonNull(dtype, "dtype"),
                    Objects.requireNonNull(shape, "shape")), checkExtension(name, extension)));
        }

        /**
         * Batches as a list of tensors in field order (PyTorch's tuple, WebDataset's
         * {@code to_tuple}) instead of a map from field name to tensor.
         */
        public Builder tuple() {
            this.tuple = true;
            return this;
        }

        public TarTensorStream build() {
            if (fields.isEmpty()) {
                throw new IllegalArgumentException("no fields: declare at least one with npy(...), integer(...) or"
                        + " raw(...)");
            }
            SampleLayout.Field[] declared = fields.stream().map(TarField::field).toArray(SampleLayout.Field[]::new);
            SampleLayout layout = tuple ? SampleLayout.tuple(declared) : SampleLayout.of(declared);
            return new TarTensorStream(source, fields, layout);
        }

        private Builder add(TarField field) {
            for (TarField f : fields) {
                if (f.field().name().equals(field.field().name())) {
                    throw new IllegalArgumentException("the field name '" + field.field().name() + "' is used twice: "
                            + f.describe() + " and " + field.describe());
                }
            }
            fields.add(field);
            return this;
        }

        private static String checkName(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("a field needs a name, not '" + name + "'");
            }
            return name;
        }

        private static String checkExtension(String name, String extension) {
            Objects.requireNonNull(extension, "extension");
            if (extension.isEmpty() || extension.startsWith(".")) {
                throw new IllegalArgumentException("field " + name + ": the member's extension is given without its"
                        + " leading dot, as WebDataset names it (\"npy\", \"cls\"), not \"" + extension + "\"");
            }
            if (extension.contains("/")) {
                throw new IllegalArgumentException("field " + name + ": \"" + extension + "\" is not an extension: a"
                        + " member's extension is what follows the first dot of its file name and has no '/'");
            }
            if (!SampleKeys.fieldOf(extension).equals(extension)) {
                throw new IllegalArgumentException("field " + name + ": \"" + extension + "\" would match no member:"
                        + " fields are extensions lower-cased, as WebDataset names them (a member x.JPG is field"
                        + " \"jpg\"); ask for \"" + SampleKeys.fieldOf(extension) + "\"");
            }
            return extension;
        }
    }
}
