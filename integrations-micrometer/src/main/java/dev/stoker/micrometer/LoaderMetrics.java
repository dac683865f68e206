package dev.stoker.micrometer;

import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderStats;
import dev.stoker.memory.PoolStats;
import dev.stoker.metrics.Stage;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * A {@link DataLoader}'s stage times, counters and pool memory as Micrometer meters, so that a
 * training job's dashboards see its loader beside the rest of the job.
 *
 * <pre>{@code
 * PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
 * try (DataLoader<Sample> loader = DataLoader.builder(dataset).batchSize(64).numWorkers(4).build();
 *      PrometheusEndpoint endpoint = PrometheusEndpoint.start(registry, 9400)) {
 *     new LoaderMetrics(loader, Tags.of("loader", "train")).bindTo(registry);
 *     for (Batch b : loader) { try (b) { step(b); } }
 * }
 * // rate(stoker_stage_seconds_total{stage="wait"}[1m]) > 0.05: the job is data-bound
 * }</pre>
 *
 * <p>The meters (Micrometer names; Prometheus renders {@code stoker.stage.seconds} as
 * {@code stoker_stage_seconds_total}), each with the tags given here:
 * <ul>
 *   <li>{@code stoker.stage.seconds}, {@code stoker.stage.spans}: per {@link Stage}, tag
 *       {@code stage} = {@link #stageTag(Stage)} ({@code fetch}, {@code first_batch}, ...), the
 *       summed seconds and the number of timed spans, as {@link DataLoader#profile()} counts them.
 *       Parts nest: {@code read}, {@code decode}, {@code transform} and {@code memory} are inside
 *       {@code fetch} or {@code collate}, so do not add them up with it.</li>
 *   <li>{@code stoker.batches}, {@code stoker.samples}, {@code stoker.batches.failed},
 *       {@code stoker.samples.skipped}: counters of {@link DataLoader#stats()}.</li>
 *   <li>{@code stoker.pool.lent}, {@code stoker.pool.idle}, {@code stoker.pool.reserved},
 *       {@code stoker.pool.budget} (bytes): the memory of {@link DataLoader#pool()} now; reserved
 *       is lent plus idle, at most the budget.</li>
 *   <li>{@code stoker.inflight.bound} (bytes): {@link DataLoader#inFlightBound()}, NaN while
 *       the bytes of a batch are not known (the general path, before the first batch).</li>
 *   <li>{@code stoker.workers}, {@code stoker.prefetch.factor}, {@code stoker.io.concurrency}: the
 *       loader's settings now, as {@link DataLoader#profile()} reports them (0 for the I/O mode when
 *       it is off). Read at each scrape, so they follow a loader that changes them while it runs
 *       (the autotuner of issue 22).</li>
 * </ul>
 *
 * <p>Per-batch histograms (the consumer's wait for each batch, each batch's assembly) are
 * {@link BatchHistograms}.
 *
 * <p>Values are read when the registry asks (at a scrape, or a push), never pushed by the loader:
 * a loader with metrics runs exactly as fast as one without. The meters hold the loader weakly, as
 * Micrometer's own binders do: binding never keeps a loader alive, and a closed loader still
 * answers with its final figures.
 *
 * <p>NOTE: two loaders in one registry need tags that tell them apart ({@code loader=train},
 * {@code loader=eval}); the same tags twice would make the second binding read the first
 * loader's meters, as Micrometer returns the meter already registered under a name and tags.
 */
public final class LoaderMetrics implements MeterBinder {
    private final DataLoader<?> loader;
    private final Tags tags;

    /**
     * Metrics of {@code loader}, each meter with {@code tags} (on top of {@code stage} where the
     * meter has one).
     *
     * @throws IllegalArgumentException when {@code tags} has a {@code stage} tag of its own
     */
    public LoaderMetrics(DataLoader<?> loader, Iterable<Tag> tags) {
        this.loader = Objects.requireNonNull(loader, "loader");
        this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
        for (Tag t : this.tags) {
            if (t.getKey().equals("stage")) {
                throw new IllegalArgumentException("the tag 'stage' is the stage meters' own (stage=fetch, ...);"
                        + " name the loader with another key, such as 'loader', not " + t);
            }
        }
    }

    /** Metrics of {@code loader} without tags of their own: for a job with one loader. */
    public LoaderMetrics(DataLoader<?> loader) {
        this(loader, Tags.empty());
    }

    /**
     * The value of the {@code stage} tag of {@code stage}'s meters: the enum's name in lower case
     * ({@code read}, {@code decode}, {@code transform}, {@code memory}, {@code fetch},
     * {@code collate}, {@code first_batch}, {@code wait}, {@code step}). Not {@link Stage#label()},
     * which has spaces and may change with the reports' wording.
     */
    public static String stageTag(Stage stage) {
        return stage.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        // Each meter's function gets the loader from Micrometer's weak reference; nothing here may
        // capture the loader itself, or the meters would keep it alive.
        StageReadings readings = new StageReadings();
        for (Stage stage : Stage.values()) {
            Tags stageTags = tags.and("stage", stageTag(stage));
            FunctionCounter.builder("stoker.stage.seconds", loader, l -> readings.of(l).get(stage).seconds())
                    .tags(stageTags)
                    .baseUnit("seconds") // Micrometer's base unit of time, as its timers write it
                    .description("Time the loader spent in the stage, summed over threads")
                    .register(registry);
            FunctionCounter.builder("stoker.stage.spans", loader, l -> readings.of(l).get(stage).count())
                    .tags(stageTags)
                    .description("Timed spans of the stage: batches for fetch and collate, waits for wait")
                    .register(registry);
        }
        counter(registry, "stoker.batches", LoaderStats::batches, "Batches loaded");
        counter(registry, "stoker.samples", LoaderStats::samples, "Samples in the batches loaded");
        counter(registry, "stoker.batches.failed", LoaderStats::failedBatches, "Batches that failed with an error");
        counter(registry, "stoker.samples.skipped", LoaderStats::skippedSamples,
                "Samples left out of their batches under SamplePolicy.SKIP");

        bytes(registry, "stoker.pool.lent", l -> l.pool().lentBytes(), "Pool memory lent out to batches now");
        bytes(registry, "stoker.pool.idle", l -> idleBytes(l.pool().stats()), "Pool memory kept for reuse now");
        bytes(registry, "stoker.pool.reserved", l -> l.pool().reservedBytes(), "Pool memory held now, lent and idle");
        bytes(registry, "stoker.pool.budget", l -> l.pool().budgetBytes(), "The most memory the pool may hold");
        bytes(registry, "stoker.inflight.bound", LoaderMetrics::inFlightBytes,
                "The most batch memory the loader holds ahead of its consumer");

        setting(registry, "stoker.workers", l -> l.profile().numWorkers(),
                "Worker threads the loader runs now (0: loading on the consumer's thread)");
        setting(registry, "stoker.prefetch.factor", l -> l.profile().prefetchFactor(),
                "Batches in flight per worker the loader allows now");
        setting(registry, "stoker.io.concurrency", l -> l.profile().ioConcurrency(),
                "Fetches at once of the I/O mode now, 0 when it is off");
    }

    private void counter(MeterRegistry registry, String name, ToLongFunction<LoaderStats> figure, String description) {
        FunctionCounter.builder(name, loader, l -> figure.applyAsLong(l.stats()))
                .tags(tags)
                .description(description)
                .register(registry);
    }

    private void bytes(MeterRegistry registry, String name, ToDoubleFunction<DataLoader<?>> value, String description) {
        Gauge.builder(name, loader, value)
                .tags(tags)
                .baseUnit(BaseUnits.BYTES)
                .description(description)
                .register(registry);
    }

    private void setting(MeterRegistry registry, String name, ToDoubleFunction<DataLoader<?>> value, String description) {
        Gauge.builder(name, loader, value)
                .tags(tags)
                .description(description)
                .register(registry);
    }

    /** Reserved minus lent from one snapshot, so the two never come from different moments. */
    private static double idleBytes(PoolStats s) {
        return s.reservedBytes() - s.lentBytes();
    }

    private static double inFlightBytes(DataLoader<?> loader) {
        long bytes = loader.inFlightBound().bytes();
        return bytes < 0 ? Double.NaN : bytes;
    }

    @Override
    public String toString() {
        return "LoaderMetrics(" + loader + ", " + tags + ")";
    }
}
