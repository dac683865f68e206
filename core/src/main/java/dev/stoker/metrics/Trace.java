package dev.stoker.metrics;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The spans of a loader's stages, thread by thread, as they happened: written out in the Trace
 * Event format that Perfetto ({@code ui.perfetto.dev}) and {@code chrome://tracing} open. Each
 * worker is a track with its batches' fetch and collate (and the dataset's read, decode and
 * transform inside them); the consumer's track shows its waits and its steps.
 *
 * <p>A trace holds at most the number of events it was started with, in arrays taken up front;
 * past that it counts what it drops rather than grow. Recording takes no lock and allocates
 * nothing.
 *
 * <pre>{@code
 * Trace trace = loader.startTrace(200_000);
 * for (Batch b : loader) { try (b) { step(b); } }
 * loader.stopTrace().writeChromeJson(Path.of("stoker-trace.json"));
 * }</pre>
 */
public final class Trace {
    /** An event's share of the arrays: 1 + 5 x 8 bytes. */
    public static final int BYTES_PER_EVENT = 41;
    private static final VarHandle PUBLISHED = MethodHandles.arrayElementVarHandle(byte[].class);
    private static final Stage[] STAGES = Stage.values();

    private final int capacity;
    private final long origin = System.nanoTime();
    private final AtomicInteger next = new AtomicInteger();
    private final LongAdder dropped = new LongAdder();
    private final Map<Long, String> threadNames = new ConcurrentHashMap<>();
    private final byte[] stage; // ordinal + 1, written last: 0 means not (yet) written
    private final long[] thread;
    private final long[] start;
    private final long[] duration;
    private final long[] epoch;
    private final long[] batch;
    private volatile boolean stopped;

    /** A trace of at most {@code maxEvents} events ({@link #BYTES_PER_EVENT} bytes each, taken now). */
    public Trace(int maxEvents) {
        if (maxEvents < 1) {
            throw new IllegalArgumentException("a trace needs room for at least one event, not " + maxEvents);
        }
        capacity = maxEvents;
        stage = new byte[maxEvents];
        thread = new long[maxEvents];
        start = new long[maxEvents];
        duration = new long[maxEvents];
        epoch = new long[maxEvents];
        batch = new long[maxEvents];
    }

    /** Records a span of the calling thread; ignored once stopped, counted as dropped when full. */
    void record(Stage s, long startNanos, long durationNanos, long epochOf, long batchOf) {
        if (stopped) {
            return;
        }
        int i = next.getAndIncrement();
        if (i >= capacity) {
            next.set(capacity); // keep the counter from running round
            dropped.increment();
            return;
        }
        Thread t = Thread.currentThread();
        long id = t.threadId();
        if (!threadNames.containsKey(id)) {
            threadNames.put(id, t.getName());
        }
        thread[i] = id;
        start[i] = startNanos;
        duration[i] = durationNanos;
        epoch[i] = epochOf;
        batch[i] = batchOf;
        PUBLISHED.setRelease(stage, i, (byte) (s.ordinal() + 1));
    }

    /**
     * When the trace started, in {@link System#nanoTime()}'s terms: what {@link #forEachSpan}'s
     * start times count from, to line them up with readings taken meanwhile.
     */
    public long startNanos() {
        return origin;
    }

    /** Stops recording: spans that end later are not kept. */
    public void stop() {
        stopped = true;
    }

    public boolean isStopped() {
        return stopped;
    }

    /** Events kept so far. */
    public int events() {
        return Math.min(next.get(), capacity);
    }

    /** Events left out because the trace was full. */
    public long dropped() {
        return dropped.sum();
    }

    /**
     * What a trace hands to {@link #forEachSpan}: one recorded span.
     */
    @FunctionalInterface
    public interface SpanVisitor {
        /**
         * One span.
         *
         * @param stage         its stage
         * @param threadId      the thread that recorded it ({@link Thread#threadId()}); see {@link #threadNames()}
         * @param startNanos    when it began, in nanoseconds since the trace started
         * @param durationNanos how long it took
         * @param epoch         the epoch of its batch, -1 where none is known
         * @param batch         its batch's number in the epoch, -1 where none is known
         */
        void span(Stage stage, long threadId, long startNanos, long durationNanos, long epoch, long batch);
    }

    /**
     * Hands every span kept so far to {@code visitor}, in the order they were recorded (not
     * necessarily the order they began): for reports that sum spans per batch or per thread
     * without parsing the JSON. Spans recorded while this runs may or may not be included.
     */
    public void forEachSpan(SpanVisitor visitor) {
        int n = events();
        for (int i = 0; i < n; i++) {
            int s = (byte) PUBLISHED.getAcquire(stage, i);
            if (s != 0) { // 0: its thread was still writing it
                visitor.span(STAGES[s - 1], thread[i], start[i] - origin, duration[i], epoch[i], batch[i]);
            }
        }
    }

    /** The names of the threads that recorded spans, by {@link Thread#threadId()}, in id order. */
    public Map<Long, String> threadNames() {
        return Collections.unmodifiableMap(new TreeMap<>(threadNames));
    }

    /** Writes the trace to {@code file} as Trace Event JSON; see the class comment. */
    public void writeChromeJson(Path file) throws IOException {
        try (Writer out = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16)) {
            writeChromeJson(out);
        }
    }

    /**
     * Writes the trace as Trace Event JSON: a {@code traceEvents} array of complete ({@code "X"})
     * events in microseconds since the trace started, with the thread names as metadata events.
     * Events recorded while this runs may or may not be included.
     */
    public void writeChromeJson(Writer out) throws IOException {
        int n = events();
        out.write("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"producer\":\"stoker\",\"events\":" + n
                + ",\"dropped\":" + dropped() + "},\"traceEvents\":[\n");
        out.write("{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"stoker loader\"}}");
        for (Map.Entry<Long, String> e : new TreeMap<>(threadNames).entrySet()) {
            out.write(",\n{\"ph\":\"M\",\"pid\":1,\"tid\":" + e.getKey()
                    + ",\"name\":\"thread_name\",\"args\":{\"name\":" + quote(e.getValue()) + "}}");
        }
        for (int i = 0; i < n; i++) {
            int s = (byte) PUBLISHED.getAcquire(stage, i);
            if (s == 0) {
                continue; // its thread was still writing it
            }
            Stage st = STAGES[s - 1];
            out.write(",\n{\"ph\":\"X\",\"pid\":1,\"tid\":" + thread[i] + ",\"name\":\"" + st.label()
                    + "\",\"cat\":\"" + category(st) + "\",\"ts\":" + micros(start[i] - origin)
                    + ",\"dur\":" + micros(duration[i]) + ",\"args\":{\"epoch\":" + epoch[i]
                    + ",\"batch\":" + batch[i] + "}}");
        }
        out.write("\n]}\n");
    }

    /** The trace as Trace Event JSON, for tests and small traces. */
    public String toChromeJson() {
        StringWriter w = new StringWriter();
        try {
            writeChromeJson(w);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not throw
        }
        return w.toString();
    }

    private static String category(Stage s) {
        return switch (s) {
            case FIRST_BATCH, WAIT, STEP -> "consumer";
            case FETCH, COLLATE -> "worker";
            default -> "dataset";
        };
    }

    private static String micros(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e3);
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
