package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The runs every resume test compares: an uninterrupted run, a run stopped after some batches
 * with its state taken, and a new loader restored from that state and run to the end. Batches are
 * compared through a description the test chooses (indices, values, epoch and position).
 *
 * <pre>{@code
 * List<String> expected = ResumeRuns.uninterrupted(loaderA, 2, describe);
 * List<String> seen = new ArrayList<>();
 * LoaderState state = ResumeRuns.stopAfter(loaderB, 2, 5, describe, seen);
 * ResumeRuns.resume(loaderC, state, 2, describe, seen, () -> {});
 * assertThat(seen).isEqualTo(expected);
 * }</pre>
 */
public final class ResumeRuns {
    private ResumeRuns() {}

    /** Every batch of {@code epochs} passes of {@code loader}, described, in delivery order. */
    public static List<String> uninterrupted(DataLoader<?> loader, int epochs, Function<Batch, String> describe) {
        List<String> out = new ArrayList<>();
        for (int e = 0; e < epochs; e++) {
            for (Batch b : loader) {
                try (b) {
                    out.add(describe.apply(b));
                }
            }
        }
        return out;
    }

    /**
     * Runs {@code loader} until {@code seen} holds {@code stopAfter} batches (or {@code epochs}
     * passes are over) and returns its state. It stops between two steps, as a job does: a batch
     * loaded ahead is not delivered.
     */
    public static LoaderState stopAfter(DataLoader<?> loader, int epochs, int stopAfter,
                                        Function<Batch, String> describe, List<String> seen) {
        for (int e = 0; e < epochs; e++) {
            BatchIterator it = loader.iterator();
            while (it.hasNext()) {
                if (seen.size() == stopAfter) {
                    return loader.state();
                }
                try (Batch b = it.next()) {
                    seen.add(describe.apply(b));
                }
            }
        }
        return loader.state();
    }

    /**
     * Restores {@code state} into {@code loader} and runs it to the end of pass {@code epochs - 1},
     * adding what it delivers to {@code seen}; {@code afterFirstPass} runs once the first resumed
     * pass is over, to check what it read.
     */
    public static void resume(DataLoader<?> loader, LoaderState state, int epochs, Function<Batch, String> describe,
                              List<String> seen, Runnable afterFirstPass) {
        loader.restore(state);
        for (long e = state.epoch(); e < epochs; e++) {
            BatchIterator it = loader.iterator();
            assertThat(it.epoch()).isEqualTo(e);
            while (it.hasNext()) {
                try (Batch b = it.next()) {
                    seen.add(describe.apply(b));
                }
            }
            if (e == state.epoch()) {
                afterFirstPass.run();
            }
        }
    }
}
