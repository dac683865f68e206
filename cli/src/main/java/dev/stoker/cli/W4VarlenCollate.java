package dev.stoker.cli;

import dev.stoker.collate.BatchMemory;
import dev.stoker.collate.PadCollate;
import dev.stoker.collate.PaddedBatch;
import dev.stoker.data.Dataset;
import dev.stoker.loader.DataLoader;
import dev.stoker.random.Seeds;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * W4, varlen-collate: 20,000 int64 token sequences in memory, lengths uniform in [16, 512],
 * tokens in [0, 50257), labels in {0, 1}; each batch of 64 is padded to its longest sequence
 * ({@link PadCollate}, PyTorch's {@code pad_sequence(batch_first=True)}) and comes out as PyTorch's
 * triple {@code [(64, maxLen) i64, labels (64) i64, lengths (64) i64]}; shuffled, one epoch.
 *
 * <p>A sample is a view of its tokens in one flat array (PyTorch's {@code seqs[i]}, a tensor
 * already made) and its label: the work measured is the loader's and the pad collate's.
 */
public final class W4VarlenCollate implements Workload {
    static final int SAMPLES = 20_000;
    static final int MIN_LENGTH = 16;
    static final int MAX_LENGTH = 512;
    static final long VOCABULARY = 50_257;
    static final int BATCH = 64;
    static final long DATA_SEED = 0;
    private static final PadCollate PAD = PadCollate.builder().padValue(0).build();

    /** One sample: a sequence of token ids and its class. */
    public record Sequence(Tensor tokens, long label) {}

    private final WorkloadSpec spec;
    private Sequences sequences;

    /** W4 as defined. */
    public W4VarlenCollate() {
        this(SAMPLES);
    }

    /** A smaller W4, for tests. */
    public W4VarlenCollate(int samples) {
        // output bytes: not defined, the padded width varies by batch
        this.spec = new WorkloadSpec("W4", "varlen-collate", WorkloadSpec.Data.NONE, 1, BATCH, samples, 0);
    }

    @Override
    public WorkloadSpec spec() {
        return spec;
    }

    @Override
    public String summary() {
        return samplesPerEpoch() + " i64 sequences in memory, lengths uniform [" + MIN_LENGTH + ", " + MAX_LENGTH
                + "], padded per batch + labels + lengths, batch " + BATCH + ", shuffled";
    }

    @Override
    public List<Configuration> configurations() {
        return Configuration.rows(List.of(0, 2), Configuration.GENERAL);
    }

    @Override
    public DataLoader<?> newLoader(Configuration c, long seed, Path data) {
        return c.engine(DataLoader.builder(sequences()))
                .batchSize(BATCH)
                .shuffle(true)
                .seed(seed)
                .collate(W4VarlenCollate::collate)
                .build();
    }

    /**
     * The peer's {@code collate_fn}: the token sequences padded with zeros ({@link PadCollate}), the
     * labels and the lengths, as {@code [padded (n, maxLen), labels (n), lengths (n)]} i64.
     */
    static Object collate(List<Sequence> batch, BatchMemory memory) {
        int n = batch.size();
        List<Tensor> tokens = new ArrayList<>(n);
        for (Sequence s : batch) {
            tokens.add(s.tokens());
        }
        PaddedBatch padded = PAD.collate(tokens, memory);
        Tensor labels = memory.allocate(DType.I64, Shape.of(n));
        for (int i = 0; i < n; i++) {
            labels.setLong(i, batch.get(i).label());
        }
        return List.of(padded.padded(), labels, padded.lengths());
    }

    /** The sequences, made on the first call from {@link #DATA_SEED}: lengths first, then tokens, then labels. */
    synchronized Sequences sequences() {
        if (sequences == null) {
            int samples = spec.samplesPerEpoch();
            long state = Seeds.mix64(DATA_SEED);
            long[] offsets = new long[samples + 1];
            for (int i = 0; i < samples; i++) {
                long length = MIN_LENGTH + Seeds.below(Seeds.mix64(state += Seeds.GOLDEN_GAMMA),
                        MAX_LENGTH - MIN_LENGTH + 1);
                offsets[i + 1] = offsets[i] + length;
            }
            long[] tokens = new long[Math.toIntExact(offsets[samples])];
            for (int t = 0; t < tokens.length; t++) {
                tokens[t] = Seeds.below(Seeds.mix64(state += Seeds.GOLDEN_GAMMA), VOCABULARY);
            }
            long[] labels = new long[samples];
            for (int i = 0; i < samples; i++) {
                labels[i] = Seeds.mix64(state += Seeds.GOLDEN_GAMMA) >>> 63;
            }
            sequences = new Sequences(MemorySegment.ofArray(tokens), offsets, labels);
        }
        return sequences;
    }

    /** The sequences as a dataset: sample {@code i} views tokens {@code [offsets[i], offsets[i + 1])}. */
    static final class Sequences implements Dataset<Sequence> {
        private final MemorySegment tokens;
        private final long[] offsets;
        private final long[] labels;

        Sequences(MemorySegment tokens, long[] offsets, long[] labels) {
            this.tokens = tokens;
            this.offsets = offsets;
            this.labels = labels;
        }

        @Override
        public long size() {
            return labels.length;
        }

        @Override
        public Sequence get(long index) {
            if (index < 0 || index >= labels.length) {
                throw new IndexOutOfBoundsException(name() + ": index " + index + " is outside [0, " + labels.length
                        + ")");
            }
            int i = (int) index;
            long length = offsets[i + 1] - offsets[i];
            Tensor view = new Tensor(tokens.asSlice(offsets[i] * Long.BYTES, length * Long.BYTES), DType.I64,
                    Shape.of(length));
            return new Sequence(view, labels[i]);
        }

        @Override
        public String name() {
            return "W4 sequences";
        }
    }
}
