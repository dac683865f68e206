package dev.stoker.loader;

import java.util.List;

/**
 * What a {@link WorkerTuner} found: every trial in the order run, the worker count chosen and why.
 *
 * @param trials the trials, in the order they ran
 * @param chosen the trial whose worker count to use
 * @param reason why that one, in words
 */
public record TuningResult(List<TuningTrial> trials, TuningTrial chosen, String reason) {
    public TuningResult {
        trials = List.copyOf(trials);
    }

    /** The worker count to build the loader with. */
    public int numWorkers() {
        return chosen.numWorkers();
    }
}
