package dev.stoker.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.StageClock;
import dev.stoker.metrics.Stages;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** {@link BatchHistograms}: one observation per batch, in fixed buckets, on a clock and on a real loader's. */
class BatchHistogramsTest {
    private static final Tags TRAIN = Tags.of("loader", "train");
    private static final long MS = 1_000_000;

    private static Timer timer(SimpleMeterRegistry registry, String name) {
        return registry.get(name).tags(TRAIN).timer();
    }

    /** Observations at or under {@code millis}, from the timer's buckets. */
    private static double atMost(Timer t, double millis) {
        for (CountAtBucket b : t.takeSnapshot().histogramCounts()) {
            if (Math.abs(b.bucket(TimeUnit.MILLISECONDS) - millis) < 1e-9) {
                return b.count();
            }
        }
        throw new AssertionError("no bucket at " + millis + " ms");
    }

    @Test
    void eachWaitIsOneObservationAndEachBatchsFetchAndCollateAnother() throws Exception {
        StageClock clock = new StageClock();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (BatchHistograms h = new BatchHistograms(clock, TRAIN)) {
            h.bindTo(registry);
            clock.record(Stage.FIRST_BATCH, 0, 900 * MS, 0, 0); // start-up: not a wait
            clock.record(Stage.WAIT, 0, 3 * MS, 0, 1);
            clock.record(Stage.WAIT, 0, 40 * MS, 0, 2);
            clock.record(Stage.STEP, 0, 80 * MS, 0, 1);
            // spans alone make no assembly: the loader tells the clock of each batch once it is made
            clock.record(Stage.FETCH, 0, 6 * MS, 0, 0);
            clock.record(Stage.COLLATE, 6 * MS, 9 * MS, 0, 0);
            clock.batchMade(0, 0, 4, 1024, 0, 9 * MS); // fetch 6 ms and collate 3 ms
            Thread filler = Thread.ofPlatform().start(() -> { // the fill path, on another thread: no collate
                clock.batchMade(0, 1, 4, 1024, 100 * MS, 120 * MS);
                clock.batchMade(0, 2, 4, 1024, 200 * MS, 230 * MS);
            });
            filler.join();
        }
        clock.record(Stage.WAIT, 0, 1 * MS, 0, 3); // after close: not heard
        clock.batchMade(0, 3, 4, 1024, 0, 1 * MS);

        Timer waits = timer(registry, "stoker.batch.wait");
        assertThat(waits.count()).isEqualTo(2);
        assertThat(waits.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(43);
        assertThat(atMost(waits, 5)).isEqualTo(1);
        assertThat(atMost(waits, 50)).isEqualTo(2);
        Timer assembly = timer(registry, "stoker.batch.assembly");
        assertThat(assembly.count()).isEqualTo(3); // each batch once, the fill path's last one too
        assertThat(assembly.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(9 + 20 + 30);
        assertThat(atMost(assembly, 10)).isEqualTo(1);
        assertThat(atMost(assembly, 25)).isEqualTo(2);
        assertThat(atMost(assembly, 50)).isEqualTo(3);
    }

    @Test
    void prometheusGetsTheBucketsOfBoth() {
        StageClock clock = new StageClock();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new BatchHistograms(clock, TRAIN).bindTo(registry);
        clock.record(Stage.WAIT, 0, 7 * MS, 0, 1);

        assertThat(registry.scrape())
                .contains("stoker_batch_wait_seconds_bucket{loader=\"train\",le=\"0.005\"} 0")
                .contains("stoker_batch_wait_seconds_bucket{loader=\"train\",le=\"0.01\"} 1")
                .contains("stoker_batch_wait_seconds_count{loader=\"train\"} 1")
                .contains("stoker_batch_assembly_seconds_bucket{loader=\"train\",le=\"30.0\"} 0");
    }

    @Test
    void onARealLoaderThereIsOneObservationPerBatch() {
        Numbers numbers = new Numbers(40, Set.of());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (DataLoader<long[]> loader = DataLoader.builder(numbers).batchSize(4).numWorkers(2).build();
                BatchHistograms h = new BatchHistograms(loader.stageClock(), TRAIN)) {
            h.bindTo(registry);
            for (Batch b : loader) {
                b.close();
            }
            // ten batches made on the general path, each observed once; nine waits (the first is start-up,
            // and the ask that found the pass over waited for no batch)
            assertThat(timer(registry, "stoker.batch.assembly").count()).isEqualTo(10);
            assertThat(timer(registry, "stoker.batch.wait").count()).isEqualTo(9);
        }
    }

    @Test
    void aDatasetReachesTheSameClockThroughStages() {
        AtomicReference<StageClock> seen = new AtomicReference<>();
        Numbers numbers = new Numbers(8, Set.of());
        dev.stoker.data.Dataset<long[]> reaching = new dev.stoker.data.Dataset<>() {
            @Override
            public long size() {
                return numbers.size();
            }

            @Override
            public long[] get(long i) {
                seen.compareAndSet(null, Stages.current().clock());
                return numbers.get(i);
            }
        };
        try (DataLoader<long[]> loader = DataLoader.builder(reaching).batchSize(4).numWorkers(2).build()) {
            for (Batch b : loader) {
                b.close();
            }
            assertThat(seen.get()).isSameAs(loader.stageClock());
        }
    }

    @Test
    void bindingTwiceIsRefused() {
        BatchHistograms h = new BatchHistograms(new StageClock(), TRAIN);
        h.bindTo(new SimpleMeterRegistry());
        assertThatThrownBy(() -> h.bindTo(new SimpleMeterRegistry())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("bound already");
    }
}
