package dev.stoker.formats.megatron;

import dev.stoker.data.Dataset;
import dev.stoker.formats.mmap.MapFaults;
import dev.stoker.formats.mmap.MappedFile;
import dev.stoker.formats.mmap.MappedFileChangedError;
import dev.stoker.formats.mmap.SharedArena;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A Megatron-LM / NeMo indexed dataset ({@code prefix.idx} + {@code prefix.bin}, as Megatron's
 * {@code preprocess_data.py} writes them), memory-mapped, as a map-style dataset of sequences:
 * sample {@code i} is sequence {@code i}'s tokens, copied into a rank-one tensor of int64 (or
 * int32, {@link #withOutput}). Documents group consecutive sequences ({@link #documentStart}).
 *
 * <p>Sequences have different lengths, so a batch of them needs padding: collate with
 * {@link dev.stoker.collate.PadCollate}, which pads to the longest in the batch and keeps each
 * length beside the padded tokens, or take {@link #padded} rows of one length, which the loader
 * writes straight into the batch.
 *
 * <pre>{@code
 * try (MegatronDataset seqs = MegatronDataset.open(Path.of("data/wiki_text_document"))) {
 *     seqs.size();               // sequences
 *     seqs.documentCount();      // documents
 *     Tensor first = seqs.get(0);                 // (length) i64
 *     PadCollate pad = PadCollate.of();
 *     DataLoader<Tensor> loader = DataLoader.builder(seqs).batchSize(32).collate(pad::collate).build();
 * }
 * }</pre>
 *
 * <p>Both files are read as untrusted: opening checks the whole index against the two files'
 * sizes ({@link MegatronIndex}), so that no later read can leave the map, and refuses a bad pair
 * with a {@link MegatronFormatException} naming the file and the sequence or document. Reading is
 * thread-safe; {@link #close()} unmaps both files, after which reads throw
 * {@link IllegalStateException}.
 *
 * <p>NOTE: as with every map, the files must not be rewritten while they are open.
 */
public final class MegatronDataset implements Dataset<Tensor>, AutoCloseable {
    private final MappedFile idxFile;
    private final MappedFile binFile;
    private final MegatronIndex index;
    private final DType output;

    private MegatronDataset(MappedFile idxFile, MappedFile binFile, MegatronIndex index, DType output) {
        this.idxFile = idxFile;
        this.binFile = binFile;
        this.index = index;
        this.output = output;
    }

    /** Opens {@code prefix.idx} and {@code prefix.bin}, each mapped in an arena of its own. */
    public static MegatronDataset open(Path prefix) throws IOException {
        Objects.requireNonNull(prefix, "prefix");
        return open(idxPath(prefix), binPath(prefix), null);
    }

    /** As {@link #open(Path)}, both files mapped in {@code group}'s shared arena. */
    public static MegatronDataset open(Path prefix, SharedArena group) throws IOException {
        Objects.requireNonNull(prefix, "prefix");
        return open(idxPath(prefix), binPath(prefix), Objects.requireNonNull(group, "group"));
    }

    private static MegatronDataset open(Path idx, Path bin, SharedArena group) throws IOException {
        MappedFile binFile = group == null ? MappedFile.open(bin) : MappedFile.open(bin, group);
        MappedFile idxFile = null;
        try {
            idxFile = group == null ? MappedFile.open(idx) : MappedFile.open(idx, group);
            MegatronIndex index = MegatronIndex.check(idx, idxFile.segment(), binFile.size());
            return new MegatronDataset(idxFile, binFile, index, DType.I64);
        } catch (IOException | RuntimeException e) {
            if (idxFile != null) {
                idxFile.close();
            }
            binFile.close();
            throw e;
        }
    }

    /** Megatron's name of the index file: {@code prefix + ".idx"}. */
    public static Path idxPath(Path prefix) {
        return prefix.resolveSibling(prefix.getFileName() + ".idx");
    }

    /** Megatron's name of the data file: {@code prefix + ".bin"}. */
    public static Path binPath(Path prefix) {
        return prefix.resolveSibling(prefix.getFileName() + ".bin");
    }

    /**
     * This dataset with samples of {@code dtype}, {@link DType#I64} or {@link DType#I32}, over the
     * same maps (closing either closes both).
     *
     * @throws IllegalArgumentException for another type, or int32 over int64 tokens (it would narrow them)
     */
    public MegatronDataset withOutput(DType dtype) {
        if (dtype != DType.I64 && dtype != DType.I32) {
            throw new IllegalArgumentException("sequences are int64 or int32 tensors, not " + dtype);
        }
        if (dtype == DType.I32 && index.dtype() == MegatronDType.INT64) {
            throw new IllegalArgumentException(binFile.path() + " holds int64 tokens, which int32 samples would narrow");
        }
        return new MegatronDataset(idxFile, binFile, index, dtype);
    }

    /** The number of sequences. */
    @Override
    public long size() {
        return index.sequenceCount();
    }

    /** Sequence {@code index}'s tokens, copied into a new {@code (length)} tensor of the output type. */
    @Override
    public Tensor get(long index) {
        long[] tokens = tokens(index);
        if (output == DType.I64) {
            return new Tensor(MemorySegment.ofArray(tokens), DType.I64, Shape.of(tokens.length));
        }
        int[] narrow = new int[tokens.length];
        for (int k = 0; k < tokens.length; k++) {
            narrow[k] = (int) tokens[k]; // checked in withOutput: every stored type fits int32
        }
        return new Tensor(MemorySegment.ofArray(narrow), DType.I32, Shape.of(narrow.length));
    }

    /** Sequence {@code index}'s tokens, copied out. */
    public long[] tokens(long index) {
        checkSequence(index);
        try {
            long[] tokens = new long[this.index.length(index)];
            TokenCopy.toLongs(this.index.dtype(), binFile.segment(), this.index.pointer(index), tokens, tokens.length);
            MapFaults.deliverPending();
            return tokens;
        } catch (InternalError e) {
            throw changed(e, "sample " + index);
        }
    }

    /**
     * Writes tokens {@code [from, from + count)} of sequence {@code sequence} into {@code dst} as
     * int64 from byte {@code dstOffset}: Megatron's {@code get(idx, offset, length)}, for code that
     * fills a batch (windows across documents, packing).
     */
    public void widen(long sequence, int from, int count, MemorySegment dst, long dstOffset) {
        checkSequence(sequence);
        try {
            int length = index.length(sequence);
            if (from < 0 || count < 0 || from > length - count) {
                throw new IndexOutOfBoundsException(binFile.path() + ": tokens [" + from + ", " + ((long) from + count)
                        + ") of sequence " + sequence + " are outside [0, " + length + ")");
            }
            MegatronDType type = index.dtype();
            TokenCopy.toSegment(type, binFile.segment(), index.pointer(sequence) + (long) from * type.bytes(), dst, dstOffset,
                    count);
            MapFaults.deliverPending();
        } catch (InternalError e) {
            throw changed(e, "sample " + sequence);
        }
    }

    /** The error for a fault on either map while reading {@code what}, naming the file that shrank. */
    private MappedFileChangedError changed(InternalError e, String what) {
        return MappedFile.changed(e, binFile, idxFile, what);
    }

    /**
     * These sequences as rows of {@code rowLength} int64 tokens, cut or padded with {@code pad},
     * written straight into the batch; see {@link PaddedSequences}.
     */
    public PaddedSequences padded(int rowLength, long pad) {
        return new PaddedSequences(this, rowLength, pad);
    }

    /** The number of tokens in sequence {@code index}. */
    public int sequenceLength(long index) {
        checkSequence(index);
        return this.index.length(index);
    }

    /** The number of documents. */
    public long documentCount() {
        return index.documentCount();
    }

    /** The first sequence of document {@code document}. */
    public long documentStart(long document) {
        checkDocument(document);
        return index.documentStart(document);
    }

    /** One past the last sequence of document {@code document} (a document may hold no sequence). */
    public long documentEnd(long document) {
        checkDocument(document);
        return index.documentStart(document + 1);
    }

    /** The document that holds sequence {@code sequence}: the last document starting at or before it that is not empty. */
    public long documentOf(long sequence) {
        checkSequence(sequence);
        long lo = 0;
        long hi = index.documentCount() - 1;
        while (lo < hi) { // the last d with start(d) <= sequence
            long mid = (lo + hi + 1) >>> 1;
            if (index.documentStart(mid) <= sequence) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** The type of the tokens in the {@code .bin}. */
    public MegatronDType dtype() {
        return index.dtype();
    }

    /** Whether the index has a mode per sequence (Megatron's multimodal datasets). */
    public boolean hasModes() {
        return index.hasModes();
    }

    /**
     * The mode of sequence {@code index}.
     *
     * @throws IllegalStateException when the dataset has no modes
     */
    public int mode(long index) {
        checkSequence(index);
        if (!this.index.hasModes()) {
            throw new IllegalStateException(idxFile.path() + " has no sequence modes (not a multimodal dataset)");
        }
        return this.index.mode(index);
    }

    private void checkSequence(long i) {
        if (i < 0 || i >= index.sequenceCount()) {
            throw new IndexOutOfBoundsException(idxFile.path() + ": sequence " + i + " is outside [0, "
                    + index.sequenceCount() + ")");
        }
    }

    private void checkDocument(long d) {
        if (d < 0 || d >= index.documentCount()) {
            throw new IndexOutOfBoundsException(idxFile.path() + ": document " + d + " is outside [0, "
                    + index.documentCount() + ")");
        }
    }

    /** Unmaps both files. Idempotent. */
    @Override
    public void close() {
        idxFile.close();
        binFile.close();
    }

    /** The {@code .bin}'s path, for messages. */
    String binName() {
        return binFile.path().toString();
    }

    @Override
    public String name() {
        return "Megatron sequences of " + binFile.path();
    }

    @Override
    public String toString() {
        return "MegatronDataset(" + binFile.path() + ", " + size() + " sequences in " + documentCount()
                + " documents, " + index.dtype().numpyName() + ")";
    }
}
