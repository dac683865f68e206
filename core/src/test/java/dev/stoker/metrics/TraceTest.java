package dev.stoker.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void writesCompleteEventsInMicrosecondsWithThreadNames(@TempDir Path dir) throws Exception {
        StageClock clock = new StageClock();
        Trace trace = clock.startTrace(16);
        long t0 = System.nanoTime();
        Thread worker = Thread.ofPlatform().name("stoker-worker-\"0\"").start(
                () -> clock.record(Stage.FETCH, t0 + 2_000, t0 + 7_500, 1, 4));
        worker.join();
        clock.record(Stage.WAIT, t0 + 1_000, t0 + 8_000, 1, 4);
        Path file = dir.resolve("trace.json");
        clock.stopTrace().writeChromeJson(file);

        JsonNode root = JSON.readTree(Files.readString(file));
        assertThat(root.path("otherData").path("events").asInt()).isEqualTo(2);
        List<JsonNode> spans = new ArrayList<>();
        List<String> threadNames = new ArrayList<>();
        for (JsonNode e : root.path("traceEvents")) {
            if (e.path("ph").asText().equals("X")) {
                spans.add(e);
            } else if (e.path("name").asText().equals("thread_name")) {
                threadNames.add(e.path("args").path("name").asText());
            }
        }
        assertThat(threadNames).contains("stoker-worker-\"0\"", Thread.currentThread().getName());
        assertThat(spans).hasSize(2);
        JsonNode fetch = spans.stream().filter(e -> e.path("name").asText().equals("fetch")).findFirst().orElseThrow();
        assertThat(fetch.path("dur").asDouble()).isEqualTo(5.5); // 5,500 ns
        assertThat(fetch.path("cat").asText()).isEqualTo("worker");
        assertThat(fetch.path("args").path("batch").asLong()).isEqualTo(4);
        assertThat(fetch.path("tid").asLong()).isEqualTo(worker.threadId());
        JsonNode wait = spans.stream().filter(e -> e.path("name").asText().equals("wait")).findFirst().orElseThrow();
        // both measured from the trace's start: the wait began 1 µs before the fetch
        // (written as decimal microseconds: the difference of two is 1 to within the last bits)
        assertThat(fetch.path("ts").asDouble() - wait.path("ts").asDouble()).isCloseTo(1.0, within(1e-6));
        assertThat(wait.path("cat").asText()).isEqualTo("consumer");
    }

    @Test
    void aFullTraceCountsWhatItDrops() throws Exception {
        StageClock clock = new StageClock();
        Trace trace = clock.startTrace(3);
        for (int i = 0; i < 10; i++) {
            clock.record(Stage.COLLATE, i, i + 1, 0, i);
        }
        assertThat(trace.events()).isEqualTo(3);
        assertThat(trace.dropped()).isEqualTo(7);
        JsonNode root = JSON.readTree(trace.toChromeJson());
        assertThat(root.path("otherData").path("dropped").asLong()).isEqualTo(7);
        long spans = 0;
        for (JsonNode e : root.path("traceEvents")) {
            if (e.path("ph").asText().equals("X")) {
                spans++;
            }
        }
        assertThat(spans).isEqualTo(3);
    }

    @Test
    void aTraceNeedsRoom() {
        assertThatThrownBy(() -> new Trace(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one event");
    }

    @Test
    void handsEverySpanKeptToAVisitorWithItsThread() throws Exception {
        StageClock clock = new StageClock();
        Trace trace = clock.startTrace(2);
        long t0 = System.nanoTime();
        Thread worker = Thread.ofPlatform().name("w-0").start(() -> clock.record(Stage.COLLATE, t0 + 500, t0 + 900, 3, 9));
        worker.join();
        clock.record(Stage.STEP, t0 + 1_000, t0 + 3_000, 3, 8);
        clock.record(Stage.WAIT, t0, t0 + 1, 3, 9); // past the capacity: dropped, not visited
        List<String> seen = new ArrayList<>();
        List<Long> starts = new ArrayList<>();
        trace.forEachSpan((stage, tid, start, d, e, b) -> {
            seen.add(stage.label() + " " + trace.threadNames().get(tid) + " " + d + " " + e + "/" + b);
            starts.add(start);
        });

        assertThat(seen).containsExactly("collate w-0 400 3/9", "step " + Thread.currentThread().getName() + " 2000 3/8");
        assertThat(starts.get(1) - starts.get(0)).isEqualTo(500); // both from the trace's own start
        assertThat(trace.threadNames()).containsEntry(worker.threadId(), "w-0");
    }
}
