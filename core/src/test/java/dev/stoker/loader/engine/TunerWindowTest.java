package dev.stoker.loader.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The tuner's windows leave out each pass's first batch, and its wait from their length: its wait is the pass starting, which no
 * worker or prefetch more can hide. Counted, the start of W3's 32-batch epochs read as 40-80% of a
 * 4-batch window waited, and the controller climbed to every lane at prefetch 4 where two workers
 * kept a 150 ms step fed.
 */
class TunerWindowTest {
    private static final long MS = 1_000_000;

    /** What one tick was given: batches, wait and window length. */
    record Window(long batches, long waitNanos, long windowNanos) {
    }

    private static LiveSettings settings(List<Window> ticks) {
        return LiveSettings.tuned(4, 1, 1, new LiveSettings.Tuner() {
            @Override
            public int everyBatches() {
                return 4;
            }

            @Override
            public long everyNanos() {
                return 0;
            }

            @Override
            public void tick(LiveSettings live, long taken, long batches, long waitNanos, long windowNanos) {
                ticks.add(new Window(batches, waitNanos, windowNanos));
            }
        }, false);
    }

    @Test
    void aPassesFirstBatchIsLeftOutOfTheWindowsWaitAndLength() {
        List<Window> ticks = new ArrayList<>();
        LiveSettings live = settings(ticks);
        long now = 1_000 * MS;
        for (int pass = 0; pass < 3; pass++) {
            now += 600 * MS;
            live.taken(600 * MS, now, true); // the pass starting: workers and buffers warming up
            for (int b = 1; b < 32; b++) {
                now += 150 * MS + MS;
                live.taken(MS, now, false); // a fed loop: 1 ms of wait a 150 ms step
            }
        }
        assertThat(live.taken()).isEqualTo(96);
        assertThat(ticks).hasSize(3 * 31 / 4); // 31 batches a pass after its first, windows of 4 across passes
        for (Window w : ticks) {
            assertThat(w.batches()).isEqualTo(4);
            assertThat((double) w.waitNanos() / w.windowNanos()).as("wait share of %s", w).isLessThan(0.01);
        }
    }

    @Test
    void withinAPassEveryBatchCounts() {
        List<Window> ticks = new ArrayList<>();
        LiveSettings live = settings(ticks);
        long now = 1_000 * MS;
        live.taken(0, now, true);
        for (int b = 0; b < 8; b++) {
            now += 100 * MS;
            live.taken(50 * MS, now, false); // half of each batch's time waited
        }
        assertThat(ticks).hasSize(2);
        assertThat(ticks).allSatisfy(w -> {
            assertThat(w.batches()).isEqualTo(4);
            assertThat((double) w.waitNanos() / w.windowNanos()).isEqualTo(0.5);
        });
    }

    @Test
    void aLoaderOfTwoBatchesAnEpochIsStillTuned() {
        List<Window> ticks = new ArrayList<>();
        LiveSettings live = settings(ticks);
        long now = 1_000 * MS;
        for (int pass = 0; pass < 8; pass++) {
            now += 300 * MS;
            live.taken(300 * MS, now, true);
            now += 100 * MS;
            live.taken(80 * MS, now, false);
        }
        assertThat(ticks).hasSize(2); // one counted batch a pass: a window every 4 passes
        assertThat(ticks).allSatisfy(w -> assertThat((double) w.waitNanos() / w.windowNanos()).isEqualTo(0.8));
    }
}
