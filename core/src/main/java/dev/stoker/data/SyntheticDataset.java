package dev.stoker.data;

import dev.stoker.random.Seeds;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.HalfFloats;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Noise images with random labels after a blocking delay: the dataset of {@code stoker bench}'s
 * workload W1, from PyTorch's data-loading tuning tutorial. The delay stands in for slow storage;
 * it sleeps, it does not spin, so it is the number of samples waiting at once that sets the
 * speed.
 *
 * <p>Sample {@code i} is a {@link SyntheticSample}: an image of the configured shape and dtype
 * (approximately standard-normal values from {@link GaussianFill} for floating types, see
 * {@link #writeImage}) and a label uniform in {@code [0, numClasses)}. Both are a pure function
 * of (seed, i): the same in every thread, every epoch, from {@link #get} and from
 * {@link #getBatch}.
 *
 * <p>{@link #get} sleeps once per sample. {@link #getBatch} sleeps once per batch (PyTorch's
 * batched {@code __getitems__} variant of W1) unless the dataset was built with
 * {@code batched(false)}, in which case it is the plain loop over {@code get}.
 *
 * <p>It is a {@link FillableDataset}: under a loader without a collate of its own it writes each
 * image straight into the batch ({@link #fill}, one delay per sample; {@link #fillBatch}, one
 * delay per batch unless {@code batched(false)}), with the same values and the same batch
 * {@code {"image": (n, ...shape), "label": (n) i64}} as {@code get} and the default collate.
 *
 * <pre>{@code
 * SyntheticDataset w1 = SyntheticDataset.builder()
 *         .size(512).shape(Shape.of(3, 224, 224)).delay(Duration.ofMillis(5)).seed(0)
 *         .build();
 * SyntheticSample s = w1.get(7);   // s.image(): f32 [3, 224, 224]; s.label() in [0, 1000)
 * }</pre>
 */
public final class SyntheticDataset implements FillableDataset<SyntheticSample> {
    /** How the delay is spent; replaced in tests to count sleeps without waiting. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    private static final long LABEL_STREAM = 0x6C61_6265_6C73_2121L;

    private final long size;
    private final Shape shape;
    private final DType dtype;
    private final Duration delay;
    private final long seed;
    private final long numClasses;
    private final boolean batched;
    private final Sleeper sleeper;
    private final int elements;
    private final SampleLayout layout;

    private SyntheticDataset(Builder b) {
        GaussianFill.prepareInBackground(); // its noise table, while the loader is built
        this.size = b.size;
        this.shape = b.shape;
        this.dtype = b.dtype;
        this.delay = b.delay;
        this.seed = b.seed;
        this.numClasses = b.numClasses;
        this.batched = b.batched;
        this.sleeper = b.sleeper;
        this.elements = (int) shape.elements();
        this.layout = SampleLayout.of(new SampleLayout.Field("image", dtype, shape),
                new SampleLayout.Field("label", DType.I64, Shape.scalar()));
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public SyntheticSample get(long index) {
        checkIndex(index);
        pause("sample " + index);
        return make(index);
    }

    /**
     * The samples at {@code indices}, after one delay for the whole batch (or one per sample when
     * built with {@code batched(false)}). The values are those {@link #get} gives.
     */
    @Override
    public List<SyntheticSample> getBatch(long[] indices) {
        if (!batched) {
            return FillableDataset.super.getBatch(indices);
        }
        for (long i : indices) {
            checkIndex(i);
        }
        pause("a batch of " + indices.length + " samples");
        List<SyntheticSample> out = new ArrayList<>(indices.length);
        for (long i : indices) {
            out.add(make(i));
        }
        return out;
    }

    /** {@code {"image": dtype shape, "label": i64 scalar}}, as a {@link SyntheticSample} collates. */
    @Override
    public SampleLayout layout() {
        return layout;
    }

    /** Writes sample {@code index} into its slot after the delay: the values {@link #get} gives. */
    @Override
    public void fill(long index, SampleSlot slot) {
        checkIndex(index);
        pause("sample " + index);
        write(index, slot);
    }

    /**
     * Writes the samples at {@code indices} after one delay for the whole batch (or one per sample
     * when built with {@code batched(false)}): the values {@link #getBatch} gives.
     */
    @Override
    public void fillBatch(long[] indices, BatchSlots slots) {
        if (!batched) {
            FillableDataset.super.fillBatch(indices, slots);
            return;
        }
        for (long i : indices) {
            checkIndex(i);
        }
        pause("a batch of " + indices.length + " samples");
        for (int j = 0; j < indices.length; j++) {
            write(indices[j], slots.slot(j));
        }
    }

    private void write(long index, SampleSlot slot) {
        writeImage(index, slot.tensor(0).segment());
        slot.tensor(1).setLong(0, label(index));
    }

    /** The label of sample {@code index}, without the delay. */
    public long label(long index) {
        checkIndex(index);
        return Seeds.below(Seeds.splitMix(Seeds.mix64(seed ^ LABEL_STREAM), index), numClasses);
    }

    /**
     * Writes the image of sample {@code index} into {@code dst} in the dataset's dtype, without
     * the delay: for a loader that fills a batch's slot in place. Floating types hold
     * approximately standard-normal values (f16, bf16 and f64 are the f32 values rounded or
     * widened); {@code u8} and {@code i8} hold uniform random bytes; {@code bool} 0 or 1; the
     * other integer types values uniform in {@code [0, numClasses)}, like token ids.
     *
     * @throws IllegalArgumentException when {@code dst} is smaller than one image
     */
    public void writeImage(long index, MemorySegment dst) {
        checkIndex(index);
        long bytes = imageBytes();
        if (dst.byteSize() < bytes) {
            throw new IllegalArgumentException("an image of " + dtype + " " + shape + " needs " + bytes
                    + " bytes; the segment holds " + dst.byteSize());
        }
        long stream = Seeds.splitMix(Seeds.mix64(seed), index);
        if (dtype == DType.F32) {
            GaussianFill.fill(dst, elements, stream);
        } else {
            fillOther(new Tensor(dst, dtype, shape), stream);
        }
    }

    /** Bytes of one image: {@code shape.elements() * dtype.byteSize()}. */
    public long imageBytes() {
        return (long) elements * dtype.byteSize();
    }

    private SyntheticSample make(long index) {
        long stream = Seeds.splitMix(Seeds.mix64(seed), index);
        Tensor image;
        if (dtype == DType.F32) {
            float[] values = new float[elements];
            GaussianFill.fill(values, stream);
            image = new Tensor(MemorySegment.ofArray(values), dtype, shape);
        } else {
            image = new Tensor(heapSegment(), dtype, shape);
            fillOther(image, stream);
        }
        return new SyntheticSample(image, label(index));
    }

    /** A Java array of the dtype's element width, so the tensor is an ordinary heap object. */
    private MemorySegment heapSegment() {
        return switch (dtype.byteSize()) {
            case 1 -> MemorySegment.ofArray(new byte[elements]);
            case 2 -> MemorySegment.ofArray(new short[elements]);
            case 4 -> MemorySegment.ofArray(new int[elements]);
            default -> MemorySegment.ofArray(new long[elements]);
        };
    }

    private void fillOther(Tensor t, long stream) {
        if (dtype.isFloatingPoint()) {
            float[] values = new float[elements];
            GaussianFill.fill(values, stream);
            switch (dtype) {
                case F16 -> {
                    short[] bits = new short[elements];
                    for (int i = 0; i < elements; i++) bits[i] = HalfFloats.floatToF16(values[i]);
                    MemorySegment.copy(bits, 0, t.segment(), DType.F16.layout(), 0, elements);
                }
                case BF16 -> {
                    short[] bits = new short[elements];
                    for (int i = 0; i < elements; i++) bits[i] = HalfFloats.floatToBf16(values[i]);
                    MemorySegment.copy(bits, 0, t.segment(), DType.BF16.layout(), 0, elements);
                }
                default -> t.copyFrom(values);
            }
            return;
        }
        long state = Seeds.mix64(stream);
        switch (dtype) {
            case U8, I8 -> {
                byte[] bytes = new byte[elements];
                for (int i = 0; i < elements; i += 8) {
                    long z = Seeds.mix64(state += Seeds.GOLDEN_GAMMA);
                    for (int j = i; j < Math.min(i + 8, elements); j++, z >>>= 8) bytes[j] = (byte) z;
                }
                t.copyFrom(bytes);
            }
            case BOOL -> {
                for (int i = 0; i < elements; i++) t.setLong(i, Seeds.mix64(state += Seeds.GOLDEN_GAMMA) >>> 63);
            }
            default -> {
                for (int i = 0; i < elements; i++) {
                    t.setLong(i, Seeds.below(Seeds.mix64(state += Seeds.GOLDEN_GAMMA), numClasses));
                }
            }
        }
    }

    private void pause(String what) {
        if (delay.isZero()) {
            return;
        }
        try {
            sleeper.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(name() + ": interrupted during the " + delay.toMillis()
                    + " ms delay before " + what, e);
        }
    }

    private void checkIndex(long index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(name() + ": index " + index + " is outside [0, " + size + ")");
        }
    }

    public Shape shape() {
        return shape;
    }

    public DType dtype() {
        return dtype;
    }

    public Duration delay() {
        return delay;
    }

    public long seed() {
        return seed;
    }

    public long numClasses() {
        return numClasses;
    }

    /** Whether {@link #getBatch} sleeps once per batch (true) or once per sample. */
    public boolean isBatched() {
        return batched;
    }

    @Override
    public String toString() {
        return name() + "(" + size + " x " + dtype + " " + shape + ", " + numClasses + " classes, delay "
                + delay.toMillis() + " ms per " + (batched ? "batch" : "sample") + ", seed " + seed + ")";
    }

    /**
     * Settings of a {@link SyntheticDataset}. Defaults are W1's without the delay: 512 samples of
     * f32 {@code [3, 224, 224]}, 1000 classes, seed 0, no delay, one delay per batch in
     * {@code getBatch}.
     */
    public static final class Builder {
        private long size = 512;
        private Shape shape = Shape.of(3, 224, 224);
        private DType dtype = DType.F32;
        private Duration delay = Duration.ZERO;
        private long seed;
        private long numClasses = 1000;
        private boolean batched = true;
        private Sleeper sleeper = Thread::sleep;

        private Builder() {}

        /** Number of samples. */
        public Builder size(long size) {
            if (size < 0) {
                throw new IllegalArgumentException("a dataset cannot have " + size + " samples");
            }
            this.size = size;
            return this;
        }

        /** Shape of each image. */
        public Builder shape(Shape shape) {
            Objects.requireNonNull(shape, "shape");
            if (shape.elements() > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("an image of shape " + shape + " has " + shape.elements()
                        + " elements, more than a Java array holds");
            }
            this.shape = shape;
            return this;
        }

        public Builder shape(long... dims) {
            return shape(Shape.of(dims));
        }

        /** Element type of the images (f32 by default; any {@link DType}). */
        public Builder dtype(DType dtype) {
            this.dtype = Objects.requireNonNull(dtype, "dtype");
            return this;
        }

        /** A blocking sleep before each sample ({@link #get}) or each batch ({@link #getBatch}); W1 uses 5 ms. */
        public Builder delay(Duration delay) {
            Objects.requireNonNull(delay, "delay");
            if (delay.isNegative()) {
                throw new IllegalArgumentException("a negative delay: " + delay);
            }
            this.delay = delay;
            return this;
        }

        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Labels are uniform in {@code [0, numClasses)}. */
        public Builder numClasses(long numClasses) {
            if (numClasses < 1) {
                throw new IllegalArgumentException("numClasses must be at least 1, not " + numClasses);
            }
            this.numClasses = numClasses;
            return this;
        }

        /**
         * True (the default): {@link #getBatch} sleeps once per batch, PyTorch's
         * {@code __getitems__} variant of W1. False: it sleeps once per sample, as the plain loop
         * over {@code get} does.
         */
        public Builder batched(boolean batched) {
            this.batched = batched;
            return this;
        }

        Builder sleeper(Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        public SyntheticDataset build() {
            return new SyntheticDataset(this);
        }
    }
}
