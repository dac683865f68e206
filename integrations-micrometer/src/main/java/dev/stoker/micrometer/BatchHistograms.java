package dev.stoker.micrometer;

import dev.stoker.metrics.BatchListener;
import dev.stoker.metrics.SpanListener;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.StageClock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Per-batch histograms of a loader's clock, where {@link LoaderMetrics}' totals say too little:
 * how the consumer's waits are spread (a mean of 2 ms may be a 200 ms stall every hundred
 * batches) and how long each batch takes to make.
 *
 * <ul>
 *   <li>{@code stoker.batch.wait} (Prometheus {@code stoker_batch_wait_seconds_bucket}): the
 *       consumer's wait for each batch after the first of its pass (the first's is start-up, in
 *       {@code stoker_stage_seconds_total{stage="first_batch"}}).</li>
 *   <li>{@code stoker.batch.assembly} ({@code stoker_batch_assembly_seconds_bucket}): each
 *       batch's fetch plus collate, on the worker that made it.</li>
 * </ul>
 *
 * <p>Both have fixed buckets from 100 µs to 30 s ({@link #BUCKETS}), the same in every job, so
 * that jobs can be compared and summed in PromQL:
 * {@code histogram_quantile(0.99, rate(stoker_batch_wait_seconds_bucket[5m]))}.
 *
 * <pre>{@code
 * try (BatchHistograms h = new BatchHistograms(loader.stageClock(), Tags.of("loader", "train"))) {
 *     h.bindTo(registry);
 *     train(loader);
 * }
 * }</pre>
 *
 * <p>It listens to a {@link StageClock}: a loader's ({@code DataLoader.stageClock()}), or any
 * clock of one's own; to its spans for the waits ({@link StageClock#listen}) and to its batches
 * for the assembly ({@link StageClock#listenBatches}: once per batch as the worker finishes it,
 * from the start of its fetch to the end of its collate or fill), so every batch is observed,
 * on the fill path too.
 */
public final class BatchHistograms implements MeterBinder, SpanListener, BatchListener, AutoCloseable {
    /** The buckets' upper bounds, the same for both histograms. */
    public static final Duration[] BUCKETS = {
        Duration.ofNanos(100_000), Duration.ofNanos(250_000), Duration.ofNanos(500_000), Duration.ofMillis(1),
        Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
        Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
        Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10),
        Duration.ofSeconds(30)
    };

    private final StageClock clock;
    private final Tags tags;
    private volatile Timer waits;
    private volatile Timer assembly;
    private StageClock.Listening listening;
    private StageClock.Listening listeningBatches;

    /**
     * Histograms of the spans {@code clock} records from {@link #bindTo} on, each meter with
     * {@code tags}.
     */
    public BatchHistograms(StageClock clock, Iterable<Tag> tags) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
    }

    /** Registers the two histograms and starts listening to the clock. Once: a second call is refused. */
    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        if (listening != null) {
            throw new IllegalStateException("these histograms are bound already; make one BatchHistograms per registry");
        }
        waits = timer(registry, "stoker.batch.wait", "The consumer's wait for each batch, the first of a pass left out");
        assembly = timer(registry, "stoker.batch.assembly", "Each batch's fetch and collate, on the worker that made it");
        listening = clock.listen(this);
        listeningBatches = clock.listenBatches(this);
    }

    private Timer timer(MeterRegistry registry, String name, String description) {
        return Timer.builder(name)
                .tags(tags)
                .description(description)
                .serviceLevelObjectives(BUCKETS)
                .register(registry);
    }

    /** Called by the clock on the consumer's thread for each span; a wait is recorded, the rest is in LoaderMetrics' totals. */
    @Override
    public void span(Stage stage, long startNanos, long durationNanos, long epoch, long batch) {
        if (stage == Stage.WAIT) {
            waits.record(durationNanos, TimeUnit.NANOSECONDS);
        }
    }

    /** Called by the clock once per batch, on the worker that made it: its assembly, fetch to collate or fill. */
    @Override
    public void batchMade(long epoch, long batch, int rows, long bytes, long startNanos, long endNanos) {
        assembly.record(Math.max(0, endNanos - startNanos), TimeUnit.NANOSECONDS);
    }

    /** Stops listening; the meters stay in the registry with what they counted. */
    @Override
    public synchronized void close() {
        if (listening != null) {
            listening.close();
            listeningBatches.close();
        }
    }

    @Override
    public String toString() {
        return "BatchHistograms(" + tags + ")";
    }
}
