package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stoker.data.CountingDataset;
import dev.stoker.data.SampleStream;
import dev.stoker.data.SampleStreams;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.Stages;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A trace's spans nest on each thread, as Perfetto draws them: on one thread two spans are apart
 * or one holds the other (a batch's fetch holds the dataset's reads for it). Read from the trace's
 * JSON, as a viewer reads it.
 */
class TraceNestingTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A span as written: thread, name, batch, and its start and end in nanoseconds. */
    private record Span(long tid, String name, long batch, long start, long end) {
        boolean holds(Span o) {
            return start <= o.start && o.end <= end;
        }

        boolean apart(Span o) {
            return end <= o.start || o.end <= start;
        }
    }

    /** Numbers 0 .. n-1, each read through {@link SampleStreams#timedReads}, as a format's stream is. */
    private static final class Timed implements StreamingDataset<Long> {
        @Override
        public SampleStream<Long> open(WorkerContext ctx) {
            SampleStream<Long> numbers = SampleStream.of(LongStream.range(0, 400)
                    .filter(i -> i % ctx.globalWorkers() == ctx.globalWorkerId()).boxed().iterator());
            return SampleStreams.timedReads(numbers, v -> v);
        }
    }

    /** Sample {@code i} read and decoded in two timed stages, as a reader of files does. */
    private static final class Staged extends CountingDataset {
        Staged() {
            super(400);
        }

        @Override
        public Long get(long index) {
            long t = Stages.start();
            Long v = super.get(index);
            Stages.end(Stage.DECODE, Stages.end(Stage.READ, t));
            return v;
        }
    }

    @ParameterizedTest(name = "streaming {0}, {1} workers")
    @CsvSource({"true, 0", "true, 2", "false, 0", "false, 2"})
    void spansNestOnEachThread(boolean streaming, int workers) throws Exception {
        LoaderBuilder<Long> builder = streaming ? DataLoader.builder(new Timed()) : DataLoader.builder(new Staged());
        List<Span> spans;
        try (DataLoader<Long> loader = builder.batchSize(4).numWorkers(workers).build()) {
            loader.startTrace(100_000);
            for (Batch b : loader) {
                b.close();
            }
            spans = parse(JSON.readTree(loader.stopTrace().toChromeJson()));
        }
        List<String> crossing = new ArrayList<>();
        for (int i = 0; i < spans.size(); i++) {
            for (int j = i + 1; j < spans.size(); j++) {
                Span a = spans.get(i);
                Span b = spans.get(j);
                if (a.tid == b.tid && !a.apart(b) && !a.holds(b) && !b.holds(a)) {
                    crossing.add(a + " and " + b);
                }
            }
        }
        assertThat(crossing).as("spans that cross on one thread").isEmpty();
        assertThat(spans).anyMatch(s -> s.name.equals("fetch")).anyMatch(s -> s.name.equals("read"));
    }

    private static List<Span> parse(JsonNode root) {
        List<Span> out = new ArrayList<>();
        for (JsonNode e : root.path("traceEvents")) {
            if (!e.path("ph").asText().equals("X")) {
                continue;
            }
            long start = nanos(e.path("ts"));
            out.add(new Span(e.path("tid").asLong(), e.path("name").asText(), e.path("args").path("batch").asLong(),
                    start, start + nanos(e.path("dur"))));
        }
        return out;
    }

    /** Microseconds written with three decimals, back to whole nanoseconds. */
    private static long nanos(JsonNode micros) {
        return new BigDecimal(micros.asText()).movePointRight(3).longValueExact();
    }
}
