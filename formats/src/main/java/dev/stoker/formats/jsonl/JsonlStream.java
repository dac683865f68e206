package dev.stoker.formats.jsonl;

import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.formats.tar.ShardAssignment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.nio.file.Path;
import java.util.Objects;

/**
 * JSONL files, plain, gzip or zstd, read as a stream without an index: each line one sample, a field's
 * string ({@link #field}) or the line's bytes ({@link #lines}), in file order.
 *
 * <p>How the work is split, a pure function of the file list and the worker's place among all
 * workers of all ranks ({@code g} of {@code G}, {@link WorkerContext#globalWorkerId()}): with at
 * least {@code G} files, worker {@code g} reads files {@code g, g + G, ...} whole, as tar shards
 * are dealt; with fewer files, every worker reads every file and keeps lines
 * {@code g, g + G, ...} of their concatenation, so that one big file still feeds every worker
 * (each decompresses all of it, but parses only its share). Either way every line goes to exactly
 * one worker. {@link #withShuffledFiles} deals the files in a new seeded order each epoch. A
 * resumed stream moves past what it had delivered by counting lines, without parsing them
 * ({@link SampleStream#skip}).
 *
 * <pre>{@code
 * JsonlStream<String> texts = JsonlStream.field(List.of(Path.of("a.jsonl.gz"), Path.of("b.jsonl.gz")), "text");
 * DataLoader<String> loader = DataLoader.builder(texts).batchSize(32).numWorkers(4)
 *         .collate((batch, memory) -> tokenize(batch)).build();
 * }</pre>
 *
 * <p>A bad line throws a {@link JsonlLineException} naming the file and line when its sample is
 * taken, after which the stream goes on with the next line; a line longer than
 * {@link #withMaxLineBytes} (64 MiB unless set) is such a bad line and is never held whole. A
 * damaged or cut-short gzip or zstd stream is one too, at the line where the damage was met (the
 * {@code JsonlLineException}'s cause is the decompressor's error); the rest of that file cannot
 * be found, so the stream goes on with the next file. An I/O error that is not about the data
 * (a disk's) ends the worker's stream with an {@link java.io.UncheckedIOException} naming the
 * file. zstd files are read through zstd-jni, an optional dependency of stoker-formats (the JDK
 * has no zstd decoder): add {@code com.github.luben:zstd-jni} to the build, or they are refused
 * when the stream is made, saying so.
 *
 * @param <T> {@code String} for a field, {@code byte[]} for raw lines
 */
public final class JsonlStream<T> implements StreamingDataset<T> {
    /** The default longest line: 64 MiB. */
    public static final int DEFAULT_MAX_LINE_BYTES = 64 << 20;

    private final List<Path> files;
    private final List<Compression> compressions;
    private final LineDecoder<T> decoder;
    private final int maxLineBytes;
    private final boolean shuffleFiles;

    private JsonlStream(List<Path> files, List<Compression> compressions, LineDecoder<T> decoder, int maxLineBytes,
                        boolean shuffleFiles) {
        this.files = files;
        this.compressions = compressions;
        this.decoder = decoder;
        this.maxLineBytes = maxLineBytes;
        this.shuffleFiles = shuffleFiles;
    }

    /** The string value of field {@code name} of each line of {@code files}. @throws IOException for a missing file, or a zstd one without zstd-jni */
    public static JsonlStream<String> field(List<Path> files, String name) throws IOException {
        return make(files, LineDecoder.field(name));
    }

    /** Each line's bytes, unparsed. @throws IOException for a missing file, or a zstd one without zstd-jni */
    public static JsonlStream<byte[]> lines(List<Path> files) throws IOException {
        return make(files, LineDecoder.raw());
    }

    private static <T> JsonlStream<T> make(List<Path> files, LineDecoder<T> decoder) throws IOException {
        List<Path> copy = List.copyOf(files);
        List<Compression> kinds = new ArrayList<>();
        for (Path f : copy) {
            Compression c = Compression.of(f);
            if (c == Compression.ZSTD && !ZstdLines.available()) {
                throw Compression.zstd(f);
            }
            kinds.add(c);
        }
        return new JsonlStream<>(copy, List.copyOf(kinds), decoder, DEFAULT_MAX_LINE_BYTES, false);
    }

    /** This stream with lines up to {@code bytes} long; longer ones are bad lines. */
    public JsonlStream<T> withMaxLineBytes(int bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("the longest line must be at least 1 byte, not " + bytes);
        }
        return new JsonlStream<>(files, compressions, decoder, bytes, shuffleFiles);
    }

    /**
     * This stream with the files in a new seeded order each epoch, the same on every rank and
     * worker: tar shards' rule ({@link ShardAssignment#order}), a pure function of the seed and
     * the epoch, so a resumed epoch reads the same order. Lines within a file keep their order.
     */
    public JsonlStream<T> withShuffledFiles(boolean shuffle) {
        return new JsonlStream<>(files, compressions, decoder, maxLineBytes, shuffle);
    }

    /** The files, in order. */
    public List<Path> files() {
        return files;
    }

    @Override
    public SampleStream<T> open(WorkerContext context) {
        Objects.requireNonNull(context, "context");
        int g = context.globalWorkerId();
        int workers = context.globalWorkers();
        List<Integer> order = order(context.seed(), context.epoch());
        if (order.size() >= workers) {
            List<Integer> mine = new ArrayList<>();
            for (int i = g; i < order.size(); i += workers) {
                mine.add(order.get(i));
            }
            return new JsonlWorkerStream<>(this, mine, 1, 0);
        }
        return new JsonlWorkerStream<>(this, order, workers, g);
    }

    /** The files of epoch {@code epoch}, by their place in {@link #files()}, in reading order. */
    List<Integer> order(long seed, long epoch) {
        List<String> positions = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            positions.add(Integer.toString(i));
        }
        return ShardAssignment.order(positions, shuffleFiles, seed, epoch).stream().map(Integer::valueOf).toList();
    }

    Path file(int i) {
        return files.get(i);
    }

    Compression compression(int i) {
        return compressions.get(i);
    }

    LineDecoder<T> decoder() {
        return decoder;
    }

    int maxLineBytes() {
        return maxLineBytes;
    }

    @Override
    public String name() {
        return "JSONL stream of " + files.size() + " files";
    }
}
