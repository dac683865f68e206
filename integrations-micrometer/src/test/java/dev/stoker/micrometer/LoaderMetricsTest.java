package dev.stoker.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.TensorDataset;
import dev.stoker.loader.Autotune;
import dev.stoker.loader.Batch;
import dev.stoker.loader.BatchIterator;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderException;
import dev.stoker.loader.LoaderProfile;
import dev.stoker.loader.LoaderStats;
import dev.stoker.loader.SamplePolicy;
import dev.stoker.loader.TuningDecision;
import dev.stoker.metrics.Stage;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.lang.foreign.Arena;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link LoaderMetrics} against real loaders: the meters say what the loader says. */
class LoaderMetricsTest {
    private static final Tags TRAIN = Tags.of("loader", "train");

    private static double counter(MeterRegistry registry, String name, String... tags) {
        return registry.get(name).tags(TRAIN).tags(tags).functionCounter().count();
    }

    private static double gauge(MeterRegistry registry, String name) {
        return registry.get(name).tags(TRAIN).gauge().value();
    }

    /** Every stage meter and counter equals the loader's own profile and stats. */
    private static void assertMetersMatch(MeterRegistry registry, DataLoader<?> loader) {
        LoaderProfile profile = loader.profile();
        LoaderStats stats = loader.stats();
        for (Stage stage : Stage.values()) {
            String tag = LoaderMetrics.stageTag(stage);
            assertThat(counter(registry, "stoker.stage.seconds", "stage", tag)).as(tag)
                    .isEqualTo(profile.times().get(stage).seconds());
            assertThat(counter(registry, "stoker.stage.spans", "stage", tag)).as(tag)
                    .isEqualTo(profile.times().get(stage).count());
        }
        assertThat(counter(registry, "stoker.batches")).isEqualTo(stats.batches());
        assertThat(counter(registry, "stoker.samples")).isEqualTo(stats.samples());
        assertThat(counter(registry, "stoker.batches.failed")).isEqualTo(stats.failedBatches());
        assertThat(counter(registry, "stoker.samples.skipped")).isEqualTo(stats.skippedSamples());
    }

    @Test
    void countersEqualTheLoadersFiguresAfterARunAndAfterClose() throws Exception {
        Set<Long> bad = Set.of(3L, 17L, 40L);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        DataLoader<long[]> loader = DataLoader.builder(new Numbers(50, bad))
                .batchSize(4).shuffle(true).seed(7).numWorkers(2).onBadSample(SamplePolicy.SKIP).build();
        new LoaderMetrics(loader, TRAIN).bindTo(registry);
        long samples = 0;
        for (int epoch = 0; epoch < 3; epoch++) {
            for (Batch b : loader) {
                try (b) {
                    samples += b.indices().length;
                }
            }
        }
        // the loader's own figures, as a check on the test: three epochs of 13 batches, bad samples skipped
        assertThat(loader.stats().batches()).isEqualTo(39);
        assertThat(loader.stats().samples()).isEqualTo(samples).isEqualTo(3 * 47);
        assertThat(loader.stats().skippedSamples()).isEqualTo(9);
        assertThat(loader.profile().times().get(Stage.DECODE).count()).isEqualTo(3 * 47);

        assertMetersMatch(registry, loader);
        assertThat(counter(registry, "stoker.stage.spans", "stage", "fetch")).isEqualTo(39);
        assertThat(counter(registry, "stoker.stage.spans", "stage", "collate")).isEqualTo(39);
        assertThat(counter(registry, "stoker.stage.spans", "stage", "first_batch")).isEqualTo(3);
        assertThat(counter(registry, "stoker.stage.seconds", "stage", "fetch")).isPositive();
        assertThat(counter(registry, "stoker.samples.skipped")).isEqualTo(9);

        loader.close();
        Thread.sleep(StageReadings.MAX_AGE_NANOS / 1_000_000 + 20); // past the reading shared by one scrape
        assertMetersMatch(registry, loader);
        assertThat(counter(registry, "stoker.batches")).isEqualTo(39);
        assertThat(gauge(registry, "stoker.pool.lent")).isZero();
    }

    @Test
    void failedBatchesAreCounted() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (DataLoader<long[]> loader = DataLoader.builder(new Numbers(20, Set.of(9L))).batchSize(5)
                .numWorkers(2).build()) {
            new LoaderMetrics(loader, TRAIN).bindTo(registry);
            BatchIterator it = loader.iterator();
            for (int k = 0; k < 4; k++) {
                if (k == 1) {
                    assertThatThrownBy(it::next).isInstanceOf(LoaderException.class);
                    break;
                }
                it.next().close();
            }
            it.close();
            assertThat(loader.stats().failedBatches()).isEqualTo(1);
            assertThat(counter(registry, "stoker.batches.failed")).isEqualTo(1);
            assertThat(counter(registry, "stoker.batches.failed")).isEqualTo(loader.stats().failedBatches());
        }
    }

    @Test
    void poolGaugesFollowTheBatchesHeldOpen() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Arena arena = Arena.ofShared()) {
            Tensor x = Tensor.allocate(arena, DType.F32, Shape.of(64, 3, 8, 8));
            Tensor y = Tensor.allocate(arena, DType.I64, Shape.of(64));
            DataLoader<List<Tensor>> loader = DataLoader.builder(TensorDataset.of(x, y))
                    .batchSize(8).numWorkers(2).prefetchFactor(2).poolBudgetBytes(64L << 20).build();
            new LoaderMetrics(loader, TRAIN).bindTo(registry);
            // a fillable dataset declares its layout: the bound is known before the first batch
            assertThat(gauge(registry, "stoker.inflight.bound")).isEqualTo(loader.inFlightBound().bytes())
                    .isEqualTo(2 * 2 * 8 * (3 * 8 * 8 * 4 + 8));
            assertThat(gauge(registry, "stoker.pool.budget")).isEqualTo(64L << 20);
            assertThat(gauge(registry, "stoker.pool.lent")).isZero();

            BatchIterator it = loader.iterator();
            Batch held = it.next();
            long heldBytes = held.buffers().stream().mapToLong(b -> b.byteSize()).sum();
            double lentNow = gauge(registry, "stoker.pool.lent");
            assertThat(lentNow).isGreaterThanOrEqualTo(heldBytes).isPositive();
            // the workers go on taking buffers: read lent before reserved, which only grows while
            // they run, so that both readings see at least the lent of the first
            assertThat(gauge(registry, "stoker.pool.reserved"))
                    .isGreaterThanOrEqualTo(lentNow)
                    .isLessThanOrEqualTo(64L << 20);
            while (it.hasNext()) {
                it.next().close();
            }
            // the workers are done and every other batch is back: only the held one is lent
            assertThat(gauge(registry, "stoker.pool.lent")).isEqualTo(loader.pool().lentBytes()).isPositive();
            double reserved = gauge(registry, "stoker.pool.reserved");
            assertThat(gauge(registry, "stoker.pool.idle") + gauge(registry, "stoker.pool.lent")).isEqualTo(reserved);
            held.close();
            assertThat(gauge(registry, "stoker.pool.lent")).isZero();
            assertThat(gauge(registry, "stoker.pool.idle")).isEqualTo(reserved);

            loader.close();
            assertThat(gauge(registry, "stoker.pool.lent")).isZero();
            assertThat(gauge(registry, "stoker.pool.reserved")).isZero();
            assertThat(gauge(registry, "stoker.pool.idle")).isZero();
            assertThat(counter(registry, "stoker.batches")).isEqualTo(8);
        }
    }

    @Test
    void theInFlightBoundIsNotANumberUntilTheGeneralPathKnowsItsBatchSize() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (DataLoader<long[]> loader = DataLoader.builder(new Numbers(12, Set.of())).batchSize(4).build()) {
            new LoaderMetrics(loader, TRAIN).bindTo(registry);
            assertThat(gauge(registry, "stoker.inflight.bound")).isNaN();
            loader.iterator().next().close();
            assertThat(gauge(registry, "stoker.inflight.bound")).isEqualTo(loader.inFlightBound().bytes()).isPositive();
        }
    }

    @Test
    void prometheusNamesTheMetersTheUsualWay() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        DataLoader<long[]> loader = DataLoader.builder(new Numbers(12, Set.of())).batchSize(4).build();
        try (loader) {
            new LoaderMetrics(loader, TRAIN).bindTo(registry);
            for (Batch b : loader) {
                b.close();
            }
            String text = registry.scrape();
            assertThat(text)
                    .contains("stoker_stage_seconds_total{loader=\"train\",stage=\"fetch\"}")
                    .contains("stoker_stage_spans_total{loader=\"train\",stage=\"first_batch\"} 1.0")
                    .contains("stoker_batches_total{loader=\"train\"} 3.0")
                    .contains("stoker_samples_total{loader=\"train\"} 12.0")
                    .contains("stoker_batches_failed_total{loader=\"train\"} 0.0")
                    .contains("stoker_samples_skipped_total{loader=\"train\"} 0.0")
                    .contains("stoker_pool_lent_bytes{loader=\"train\"} 0.0")
                    .contains("stoker_pool_budget_bytes{loader=\"train\"} ")
                    .contains("stoker_inflight_bound_bytes{loader=\"train\"} ");
        }
        // the loader is closed now: a scrape still works and says where it ended
        assertThat(registry.scrape()).contains("stoker_batches_total{loader=\"train\"} 3.0")
                .contains("stoker_pool_reserved_bytes{loader=\"train\"} 0.0");
        assertThat(loader.stats().batches()).isEqualTo(3);
    }

    @Test
    void twoLoadersInOneRegistryKeepTheirOwnMeters() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (DataLoader<long[]> train = DataLoader.builder(new Numbers(12, Set.of())).batchSize(4).build();
             DataLoader<long[]> eval = DataLoader.builder(new Numbers(6, Set.of())).batchSize(2).build()) {
            new LoaderMetrics(train, TRAIN).bindTo(registry);
            new LoaderMetrics(eval, Tags.of("loader", "eval")).bindTo(registry);
            for (Batch b : train) {
                b.close();
            }
            assertThat(counter(registry, "stoker.batches")).isEqualTo(3);
            assertThat(registry.get("stoker.batches").tags("loader", "eval").functionCounter().count()).isZero();
        }
    }

    @Test
    void theMetersDoNotKeepALoaderAlive() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        WeakReference<DataLoader<long[]>> gone = bindRunAndDrop(registry);
        for (int i = 0; i < 100 && gone.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(gone.get()).as("the loader, once the test dropped it").isNull();
        // as Micrometer does for a collected object: a gauge has no value, a counter keeps its last
        assertThat(gauge(registry, "stoker.pool.lent")).isNaN();
        assertThat(counter(registry, "stoker.batches")).isEqualTo(3);
    }

    private static WeakReference<DataLoader<long[]>> bindRunAndDrop(MeterRegistry registry) {
        DataLoader<long[]> loader = DataLoader.builder(new Numbers(12, Set.of())).batchSize(4).numWorkers(2).build();
        LoaderMetrics metrics = new LoaderMetrics(loader, TRAIN);
        metrics.bindTo(registry);
        for (Batch b : loader) {
            b.close();
        }
        assertThat(counter(registry, "stoker.batches")).isEqualTo(3);
        loader.close();
        return new WeakReference<>(loader);
    }

    @Test
    void aStageTagOfTheCallersOwnIsRefused() {
        try (DataLoader<long[]> loader = DataLoader.builder(new Numbers(4, Set.of())).build()) {
            assertThatThrownBy(() -> new LoaderMetrics(loader, Tags.of("stage", "pretrain")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'stage'");
        }
    }

    @Test
    void stageTagsAreTheEnumNamesInLowerCase() {
        assertThat(LoaderMetrics.stageTag(Stage.MEMORY)).isEqualTo("memory");
        assertThat(LoaderMetrics.stageTag(Stage.FIRST_BATCH)).isEqualTo("first_batch");
        assertThat(LoaderMetrics.stageTag(Stage.FETCH)).isEqualTo("fetch");
    }

    @Test
    void theSettingsGaugesSayWhatTheLoaderRuns() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (DataLoader<long[]> threads = DataLoader.builder(new Numbers(12, Set.of())).batchSize(4).numWorkers(3)
                .prefetchFactor(5).build();
             DataLoader<long[]> io = DataLoader.builder(new Numbers(12, Set.of())).batchSize(4).ioConcurrency(16).build()) {
            new LoaderMetrics(threads, TRAIN).bindTo(registry);
            new LoaderMetrics(io, Tags.of("loader", "io")).bindTo(registry);

            assertThat(gauge(registry, "stoker.workers")).isEqualTo(3);
            assertThat(gauge(registry, "stoker.prefetch.factor")).isEqualTo(5);
            assertThat(gauge(registry, "stoker.io.concurrency")).isZero();
            assertThat(registry.scrape())
                    .contains("stoker_workers{loader=\"train\"} 3.0")
                    .contains("stoker_prefetch_factor{loader=\"train\"} 5.0")
                    .contains("stoker_io_concurrency{loader=\"io\"} " + (double) io.profile().ioConcurrency())
                    .contains("stoker_workers{loader=\"io\"} " + (double) io.numWorkers());
            assertThat(io.profile().ioConcurrency()).isEqualTo(16); // a check on the test: the I/O mode is on
        }
    }

    @Test
    void theSettingsGaugesFollowTheAutotuner() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        // in the I/O mode (up to 8 fetches at once), which the autotuner sets too
        List<TuningDecision> decisions = List.of(TuningDecision.given(0, 1, 1, 2), TuningDecision.given(2, 2, 3, 6));
        try (DataLoader<long[]> tuned = DataLoader.builder(new Numbers(12, Set.of())).batchSize(4).ioConcurrency(8)
                .autotune(Autotune.budget(64L << 20).maxWorkers(2).replaying(decisions)).build()) {
            new LoaderMetrics(tuned, TRAIN).bindTo(registry);
            assertThat(gauge(registry, "stoker.workers")).isEqualTo(1);
            assertThat(gauge(registry, "stoker.prefetch.factor")).isEqualTo(1);
            assertThat(gauge(registry, "stoker.io.concurrency")).isEqualTo(2);
            for (Batch b : tuned) { // 3 batches: the second decision applies after the second
                b.close();
            }
            assertThat(gauge(registry, "stoker.workers")).isEqualTo(2);
            assertThat(gauge(registry, "stoker.prefetch.factor")).isEqualTo(3);
            assertThat(gauge(registry, "stoker.io.concurrency")).isEqualTo(6);
            assertThat(tuned.tuningLog()).extracting(TuningDecision::batch).containsExactly(0L, 2L);
        }
    }
}
