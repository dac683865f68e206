package dev.stoker.formats.megatron;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Objects;

/**
 * Writes a Megatron-LM indexed dataset ({@code prefix.bin} + {@code prefix.idx}) byte for byte as
 * Megatron's own {@code IndexedDatasetBuilder} does for the same calls, so that Megatron-LM, NeMo
 * and {@link MegatronDataset} read it.
 *
 * <p>Add sequences and close each document ({@link #addSequence} then {@link #endDocument}, or a
 * whole document at once with {@link #addDocument}), then {@link #commit()}: it publishes the
 * {@code .bin}, then the {@code .idx}, each written under a temporary name beside it and renamed,
 * so a reader that sees the {@code .idx} sees the whole dataset, and a crash leaves no half-written
 * dataset under the final names. {@link #close()} without a commit deletes what was written.
 *
 * <pre>{@code
 * try (MegatronWriter out = MegatronWriter.create(Path.of("out/wiki_text_document"), MegatronDType.UINT16)) {
 *     for (long[] doc : tokenizedDocuments) {
 *         out.addSequence(doc);
 *         out.endDocument();
 *     }
 *     out.commit();
 * }
 * }</pre>
 *
 * <p>Differences from Megatron's builder, none of which changes the bytes of a dataset it would
 * write correctly: a token that does not fit the dtype is refused (NumPy would wrap it); sequences
 * added after the last {@link #endDocument} are closed as a document by {@link #commit()} (Megatron
 * would write an index its reader refuses). Not thread-safe: one writer per thread.
 */
public final class MegatronWriter implements AutoCloseable {
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final int BUFFER = 1 << 16;

    private final Path prefix;
    private final MegatronDType dtype;
    private final boolean multimodal;
    private final Path binTemp;
    private final Path idxTemp;
    private final OutputStream bin;
    private final byte[] buffer = new byte[BUFFER];
    private final MemorySegment bufferSegment = MemorySegment.ofArray(buffer);
    private int buffered;

    private int[] lengths = new int[1024];
    private byte[] modes;
    private long sequences;
    private long[] documents = new long[256];
    private long documentIndices = 1; // documents[0] = 0, as Megatron's builder starts
    private boolean finished; // no more adds: committing, committed or closed
    private boolean committed;

    private MegatronWriter(Path prefix, MegatronDType dtype, boolean multimodal) throws IOException {
        this.prefix = prefix;
        this.dtype = dtype;
        this.multimodal = multimodal;
        this.modes = multimodal ? new byte[1024] : null;
        // a name of its own per writer (two jobs may write one prefix), created as any file is, so
        // that the published files have the umask's permissions (createTempFile's are owner-only)
        String unique = "." + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong()) + ".tmp";
        this.binTemp = MegatronDataset.binPath(prefix).resolveSibling(MegatronDataset.binPath(prefix).getFileName() + unique);
        this.idxTemp = MegatronDataset.idxPath(prefix).resolveSibling(MegatronDataset.idxPath(prefix).getFileName() + unique);
        this.bin = Channels.newOutputStream(FileChannel.open(binTemp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
    }

    /** A writer of tokens of {@code dtype} to {@code prefix.bin} and {@code prefix.idx}. */
    public static MegatronWriter create(Path prefix, MegatronDType dtype) throws IOException {
        return new MegatronWriter(Objects.requireNonNull(prefix, "prefix"), Objects.requireNonNull(dtype, "dtype"), false);
    }

    /** As {@link #create}, with a mode per sequence (Megatron's {@code multimodal=True}). */
    public static MegatronWriter createMultimodal(Path prefix, MegatronDType dtype) throws IOException {
        return new MegatronWriter(Objects.requireNonNull(prefix, "prefix"), Objects.requireNonNull(dtype, "dtype"), true);
    }

    /** Adds one sequence (Megatron's {@code add_item}), of mode 0 in a multimodal dataset. */
    public void addSequence(long[] tokens) throws IOException {
        addSequence(tokens, 0);
    }

    /** Adds one sequence with its {@code mode} (a byte, as Megatron stores it). */
    public void addSequence(long[] tokens, int mode) throws IOException {
        addDocumentPart(tokens, 0, tokens.length, mode);
    }

    /** Adds one sequence of int tokens (what most tokenizers return), of mode 0 in a multimodal dataset. */
    public void addSequence(int[] tokens) throws IOException {
        long[] wide = new long[tokens.length];
        for (int k = 0; k < tokens.length; k++) {
            wide[k] = tokens[k];
        }
        addSequence(wide, 0);
    }

    /** Closes the current document: the sequences added since the last call are its sequences. */
    public void endDocument() {
        checkOpen();
        if (documentIndices == documents.length) {
            documents = Arrays.copyOf(documents, grow(documents.length));
        }
        documents[(int) documentIndices++] = sequences;
    }

    /**
     * Adds a whole document (Megatron's {@code add_document}): {@code tokens} cut into sequences
     * of {@code lengths}, which must add up to its length, then {@link #endDocument()}.
     */
    public void addDocument(long[] tokens, int[] lengths) throws IOException {
        addDocument(tokens, lengths, null);
    }

    /** As {@link #addDocument(long[], int[])}, with a mode per sequence (null: all 0). */
    public void addDocument(long[] tokens, int[] lengths, int[] modes) throws IOException {
        checkOpen();
        long sum = 0;
        for (int length : lengths) {
            if (length < 0) {
                throw new IllegalArgumentException("a sequence length is negative: " + length);
            }
            sum += length;
        }
        if (sum != tokens.length) {
            throw new IllegalArgumentException("the lengths add up to " + sum + " tokens, the document has " + tokens.length);
        }
        if (modes != null && modes.length != lengths.length) {
            throw new IllegalArgumentException(lengths.length + " lengths but " + modes.length + " modes");
        }
        int from = 0;
        for (int k = 0; k < lengths.length; k++) {
            addDocumentPart(tokens, from, lengths[k], modes == null ? 0 : modes[k]);
            from += lengths[k];
        }
        endDocument();
    }

    private void addDocumentPart(long[] tokens, int from, int count, int mode) throws IOException {
        checkOpen();
        if (mode < Byte.MIN_VALUE || mode > Byte.MAX_VALUE) {
            throw new IllegalArgumentException("mode " + mode + " of sequence " + sequences + " is not an int8");
        }
        for (int k = from; k < from + count; k++) {
            long t = tokens[k];
            if (t < dtype.min() || t > dtype.max()) {
                throw new IllegalArgumentException("token " + (k - from) + " of sequence " + sequences + " is " + t
                        + ", outside " + dtype.numpyName() + "'s [" + dtype.min() + ", " + dtype.max() + "]");
            }
        }
        for (int k = from; k < from + count; k++) {
            if (buffered + dtype.bytes() > BUFFER) {
                flush();
            }
            dtype.write(bufferSegment, buffered, tokens[k]);
            buffered += dtype.bytes();
        }
        if (sequences == lengths.length) {
            lengths = Arrays.copyOf(lengths, grow(lengths.length));
            if (multimodal) {
                this.modes = Arrays.copyOf(this.modes, lengths.length);
            }
        }
        lengths[(int) sequences] = count;
        if (multimodal) {
            this.modes[(int) sequences] = (byte) mode;
        }
        sequences++;
    }

    private static int grow(int n) {
        if (n >= Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("more than " + n + " sequences or documents in one dataset");
        }
        return (int) Math.min(Integer.MAX_VALUE - 8, 2L * n);
    }

    private void flush() throws IOException {
        bin.write(buffer, 0, buffered);
        buffered = 0;
    }

    /** The sequences added so far. */
    public long sequenceCount() {
        return sequences;
    }

    /**
     * Publishes the dataset: closes a document left open, writes the {@code .bin} and the
     * {@code .idx} to disk (forced) under temporary names, renames the {@code .bin} into place and
     * then the {@code .idx}. The writer is done after it.
     */
    public void commit() throws IOException {
        checkOpen();
        if (documents[(int) documentIndices - 1] != sequences) {
            endDocument();
        }
        finished = true; // from here a failure leaves temporary files only, which close() deletes
        flush();
        bin.close();
        try (FileChannel ch = FileChannel.open(binTemp, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        writeIndex();
        Files.move(binTemp, MegatronDataset.binPath(prefix), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.move(idxTemp, MegatronDataset.idxPath(prefix), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        committed = true;
    }

    private void writeIndex() throws IOException {
        try (FileChannel ch = FileChannel.open(idxTemp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                OutputStream out = Channels.newOutputStream(ch)) {
            byte[] head = new byte[MegatronIndex.HEADER_BYTES];
            MemorySegment h = MemorySegment.ofArray(head);
            System.arraycopy(MegatronIndex.MAGIC, 0, head, 0, MegatronIndex.MAGIC.length);
            h.set(I64, 9, MegatronIndex.VERSION);
            h.set(ValueLayout.JAVA_BYTE, 17, (byte) dtype.code());
            h.set(I64, 18, sequences);
            h.set(I64, 26, documentIndices);
            out.write(head);
            Chunks chunks = new Chunks(out);
            for (int i = 0; i < sequences; i++) {
                chunks.putInt(lengths[i]);
            }
            long pointer = 0;
            for (int i = 0; i < sequences; i++) {
                chunks.putLong(pointer);
                pointer += (long) lengths[i] * dtype.bytes();
            }
            for (int d = 0; d < documentIndices; d++) {
                chunks.putLong(documents[d]);
            }
            if (multimodal) {
                for (int i = 0; i < sequences; i++) {
                    chunks.putByte(modes[i]);
                }
            }
            chunks.flush();
            ch.force(true);
        }
    }

    /** Little-endian numbers into an output stream, through one buffer. */
    private static final class Chunks {
        private final OutputStream out;
        private final byte[] bytes = new byte[BUFFER];
        private final MemorySegment seg = MemorySegment.ofArray(bytes);
        private int n;

        Chunks(OutputStream out) {
            this.out = out;
        }

        void putInt(int v) throws IOException {
            room(4);
            seg.set(I32, n, v);
            n += 4;
        }

        void putLong(long v) throws IOException {
            room(8);
            seg.set(I64, n, v);
            n += 8;
        }

        void putByte(byte v) throws IOException {
            room(1);
            bytes[n++] = v;
        }

        private void room(int k) throws IOException {
            if (n + k > bytes.length) {
                flush();
            }
        }

        void flush() throws IOException {
            out.write(bytes, 0, n);
            n = 0;
        }
    }

    private void checkOpen() {
        if (finished) {
            throw new IllegalStateException("the writer of " + prefix + " is committed or closed");
        }
    }

    /** After {@link #commit()}: nothing. Without it: deletes what was written. Idempotent. */
    @Override
    public void close() throws IOException {
        finished = true;
        if (!committed) {
            try {
                bin.close();
            } finally {
                Files.deleteIfExists(binTemp);
                Files.deleteIfExists(idxTemp);
            }
        }
    }
}
