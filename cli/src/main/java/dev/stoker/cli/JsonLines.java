package dev.stoker.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * One JSON object per configuration, on one line, for scripts ({@code stoker bench --json}).
 *
 * <p>Besides Stoker's own field names it carries the PyTorch peer benchmark's ({@code config},
 * {@code times_s}, {@code samples}, {@code sps_median}, {@code MBps_median}), so that lines of
 * both sides join on {@code workload} and {@code config} and compare without translation.
 */
final class JsonLines {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonLines() {}

    /** The line for {@code r}, without the newline. */
    static String format(BenchResult r, int epochs, Machine machine) {
        return format(r, epochs, machine, Optional.empty());
    }

    /**
     * The line for {@code r}, with the run's {@link ColdStart} where {@code r}'s loader was the run's
     * first: {@code cold_dataset_ms} (the dataset's build, before the loader's), {@code
     * cold_build_to_first_batch_ms} (the loader's build to its first batch), {@code
     * cold_jvm_to_first_batch_ms} and, where the OS says when the process started, {@code
     * cold_process_to_first_batch_ms}.
     */
    static String format(BenchResult r, int epochs, Machine machine, Optional<ColdStart> coldStart) {
        ObjectNode o = JSON.createObjectNode();
        o.put("workload", r.workload());
        o.put("configuration", r.configuration().name());
        o.put("config", r.configuration().peerName());
        o.put("num_workers", r.configuration().numWorkers());
        o.put("persistent_workers", r.configuration().persistentWorkers());
        o.put("batched", r.configuration().batched());
        o.put("fill", r.configuration().fill());
        o.put("io_concurrency", r.configuration().ioConcurrency());
        o.put("epochs", epochs);
        o.put("reps", r.repetitions().size());
        o.put("samples", r.samples());
        o.put("batches", r.batches());
        o.putPOJO("times_s", r.timesSeconds());
        o.put("samples_per_s", r.samplesPerSecond());
        o.put("samples_per_s_min", r.samplesPerSecondMin());
        o.put("samples_per_s_max", r.samplesPerSecondMax());
        o.put("sps_median", r.samplesPerSecond());
        o.put("batches_per_s", r.batchesPerSecond());
        putNumberOrNull(o, "mb_per_s", r.megabytesPerSecond());
        putNumberOrNull(o, "MBps_median", r.megabytesPerSecond());
        o.put("first_batch_ms", r.firstBatchMillis());
        o.put("peak_rss_bytes", r.peakRssBytes());
        o.put("pool_peak_bytes", r.poolPeakBytes());
        o.put("in_flight_bound_bytes", r.inFlightBytes());
        coldStart.ifPresent(cold -> {
            o.put("cold_dataset_ms", ColdStart.millis(cold.datasetBuild()));
            o.put("cold_build_to_first_batch_ms", ColdStart.millis(cold.buildToFirstBatch()));
            o.put("cold_jvm_to_first_batch_ms", ColdStart.millis(cold.jvmToFirstBatch()));
            cold.processToFirstBatch().ifPresent(d -> o.put("cold_process_to_first_batch_ms", ColdStart.millis(d)));
        });
        o.put("cores", machine.cores());
        o.put("jvm", machine.jvm());
        try {
            return JSON.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** JSON has no NaN: a figure that is not defined is null. */
    private static void putNumberOrNull(ObjectNode o, String field, double v) {
        if (Double.isNaN(v)) {
            o.putNull(field);
        } else {
            o.put(field, v);
        }
    }
}
