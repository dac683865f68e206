package dev.stoker.formats.jsonl;

import dev.stoker.data.Dataset;
import dev.stoker.formats.mmap.MapFaults;
import dev.stoker.formats.mmap.MappedFile;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A JSONL file (one JSON object per line) as a map-style dataset: sample {@code i} is line
 * {@code i} (from 0; line {@code i + 1} of an editor), either the string value of one field
 * ({@link #field}: {@code "text"}, say) or the line's bytes ({@link #lines}).
 *
 * <p>The file is indexed once by its line offsets into a sidecar beside it
 * ({@code train.jsonl.lines}; written to a temporary name and renamed), then memory-mapped with
 * it: a read is two index reads and one copy. A sidecar made for another version of the file
 * (another size, modification time or first 64 KiB) is refused with a {@link JsonlIndexException}
 * that says so; delete it to index again.
 *
 * <pre>{@code
 * try (JsonlDataset<String> docs = JsonlDataset.field(Path.of("train.jsonl"), "text")) {
 *     String first = docs.get(0);
 *     DataLoader<String> loader = DataLoader.builder(docs).batchSize(32).shuffle(true)
 *             .collate((texts, memory) -> tokenize(texts)).build();
 * }
 * }</pre>
 *
 * <p>Every line is a sample: a blank or malformed line throws a {@link JsonlLineException} naming
 * the file and the line when it is read (the loader's skip policy can count it instead).
 *
 * <p>NOTE: random access needs a plain file. A gzip stream can only be read from its start, so
 * each line would cost a decompression of everything before it; such a file is refused at open,
 * pointing to {@link JsonlStream}, which reads it in one pass (or decompress it once with
 * {@code gunzip -k} and index the result). zstd is refused everywhere: the JDK has no decoder and
 * this module takes no dependency.
 *
 * @param <T> {@code String} for a field, {@code byte[]} for raw lines
 */
public final class JsonlDataset<T> implements Dataset<T>, AutoCloseable {
    private final Path file;
    private final MappedFile data;
    private final LineIndex index;
    private final LineDecoder<T> decoder;

    private JsonlDataset(Path file, MappedFile data, LineIndex index, LineDecoder<T> decoder) {
        this.file = file;
        this.data = data;
        this.index = index;
        this.decoder = decoder;
    }

    /** Line {@code i}'s field {@code name}, a JSON string, as a {@code String}; indexed beside the file. */
    public static JsonlDataset<String> field(Path file, String name) throws IOException {
        return open(file, LineIndex.sidecarOf(file), LineDecoder.field(name));
    }

    /** As {@link #field(Path, String)}, with the index at {@code sidecar} (for a folder that cannot be written). */
    public static JsonlDataset<String> field(Path file, Path sidecar, String name) throws IOException {
        return open(file, sidecar, LineDecoder.field(name));
    }

    /**
     * Line {@code i}'s field {@code name}, a JSON array of int32 integers (pre-tokenized ids,
     * {@code {"input_ids": [101, 2023, ...]}}), as an {@code int[]}; indexed beside the file.
     */
    public static JsonlDataset<int[]> intListField(Path file, String name) throws IOException {
        return open(file, LineIndex.sidecarOf(file), LineDecoder.intList(name));
    }

    /** Line {@code i}'s bytes, without its newline, unparsed; indexed beside the file. */
    public static JsonlDataset<byte[]> lines(Path file) throws IOException {
        return open(file, LineIndex.sidecarOf(file), LineDecoder.raw());
    }

    /** As {@link #lines(Path)}, with the index at {@code sidecar}. */
    public static JsonlDataset<byte[]> lines(Path file, Path sidecar) throws IOException {
        return open(file, sidecar, LineDecoder.raw());
    }

    /** The default sidecar of {@code file}: its name plus {@code .lines}. */
    public static Path sidecarOf(Path file) {
        return LineIndex.sidecarOf(file);
    }

    /** (Re)builds {@code file}'s index at {@code sidecar}, replacing what is there. */
    public static void index(Path file, Path sidecar) throws IOException {
        checkPlain(file);
        LineIndex.build(file, sidecar);
    }

    private static <T> JsonlDataset<T> open(Path file, Path sidecar, LineDecoder<T> decoder) throws IOException {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(sidecar, "sidecar");
        checkPlain(file);
        if (!Files.exists(sidecar)) {
            LineIndex.build(file, sidecar);
        }
        LineIndex index = LineIndex.open(file, sidecar);
        try {
            MappedFile data = MappedFile.open(file);
            if (data.size() != index.start(index.lines())) { // changed since the index was checked
                data.close();
                throw new JsonlIndexException(file, "changed while it was opened (" + data.size() + " bytes, indexed at "
                        + index.start(index.lines()) + ")");
            }
            return new JsonlDataset<>(file, data, index, decoder);
        } catch (IOException | RuntimeException e) {
            index.close();
            throw e;
        }
    }

    private static void checkPlain(Path file) throws IOException {
        switch (Compression.of(file)) {
            case GZIP -> throw new JsonlIndexException(file, "is gzip-compressed, and a gzip stream cannot be read "
                    + "from the middle: read it in one pass with JsonlStream, or decompress it once (gunzip -k) and "
                    + "open the plain file");
            case ZSTD -> throw new JsonlIndexException(file, "is zstd-compressed, and a zstd stream cannot be read "
                    + "from the middle: read it in one pass with JsonlStream, or decompress it once (zstd -d) and "
                    + "open the plain file");
            case NONE -> { }
        }
    }

    /** The number of lines. */
    @Override
    public long size() {
        return index.lines();
    }

    /** Line {@code index} (from 0), decoded. @throws JsonlLineException naming the file and line for a bad line */
    @Override
    public T get(long index) {
        Scratch mine = SCRATCH.get();
        byte[] kept = mine.line;
        int n = read(index, mine);
        byte[] line = mine.line;
        if (line.length > MAX_KEPT) {
            mine.line = kept; // a one-off long line is not kept
        }
        return decoder.decode(line, n, file, index + 1);
    }

    /**
     * Each thread's array for the line being decoded, kept from line to line at the size the
     * longest line needed (a decoder copies out what it keeps): a line is then one copy out of the
     * map, not a fresh array for every sample.
     */
    private static final class Scratch {
        byte[] line;

        Scratch(int size) {
            line = new byte[size];
        }
    }

    private static final int MAX_KEPT = 1 << 22; // 4 MiB a thread at most
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(() -> new Scratch(4096));

    /** Line {@code index}'s bytes, without its newline (and the {@code '\r'} of a CRLF file). */
    public byte[] bytes(long index) {
        Scratch one = new Scratch(0);
        int n = read(index, one);
        return one.line.length == n ? one.line : java.util.Arrays.copyOf(one.line, n);
    }

    /**
     * Copies line {@code index} (without its newline and a CRLF file's {@code '\r'}) to the start
     * of {@code into.line}, replaced by an array of the line's length when it is too short; returns
     * the line's length.
     */
    private int read(long index, Scratch into) {
        if (index < 0 || index >= this.index.lines()) {
            throw new IndexOutOfBoundsException(file + ": line " + index + " is outside [0, " + this.index.lines() + ")");
        }
        try {
            long start = this.index.start(index);
            long end = this.index.next(index);
            MemorySegment seg = data.segment();
            if (end > start && seg.get(ValueLayout.JAVA_BYTE, end - 1) == '\n') {
                end--;
            }
            if (end - start > Integer.MAX_VALUE - 8) {
                throw new JsonlLineException(file, index + 1, "is " + (end - start) + " bytes, more than a Java array holds");
            }
            int length = (int) (end - start);
            byte[] line = into.line.length >= length ? into.line : new byte[length];
            MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, start, line, 0, length);
            MapFaults.deliverPending();
            into.line = line;
            return LineDecoder.stripCr(line, length);
        } catch (InternalError e) {
            throw MappedFile.changed(e, data, this.index.sidecar(), "sample " + index + " (line " + (index + 1) + ")");
        }
    }

    /** The file. */
    public Path file() {
        return file;
    }

    /** Unmaps the file and its index. Idempotent. */
    @Override
    public void close() {
        index.close();
        data.close();
    }

    @Override
    public String name() {
        return "JSONL " + file;
    }

    @Override
    public String toString() {
        return "JsonlDataset(" + file + ", " + size() + " lines)";
    }
}
