package dev.stoker.loader;

/**
 * One worker count tried by a {@link WorkerTuner}: how it did against the step.
 *
 * @param numWorkers       the worker count tried
 * @param batchesPerSecond batches the loop took per second, the first of the trial left out
 * @param profile          the trial's loader profile: wait share, busy share, CPU, verdict
 */
public record TuningTrial(int numWorkers, double batchesPerSecond, LoaderProfile profile) {

    /** Whether the loop was fed: compute-bound by the profile's verdict. */
    public boolean keepsUp() {
        return profile.verdict().kind() == Verdict.Kind.COMPUTE_BOUND;
    }
}
