package dev.stoker.loader.engine;

import dev.stoker.data.WorkerContext;
import dev.stoker.data.WorkerScope;
import dev.stoker.metrics.Stages;

/**
 * The samples of one batch made by several workers at once: the worker whose batch it is and the
 * others, which help before they start on batches of their own ({@link BatchHelp}). Each thread
 * claims the next sample not yet claimed, in batch order, and makes it ({@link SampleWork}: fills
 * its row, or fetches it into its place); the batch's worker then waits for the samples the others
 * are still making, so that no thread writes into the batch once it has gone on.
 *
 * <p>Why the draws stay the same: a batch made by one thread gives all its samples the batch's
 * generator ({@link WorkerContext#currentRandom()}), each sample drawing where the one before it
 * stopped. The batch's worker makes its first sample itself, in the batch's scope, and shares the
 * rest only when that one drew nothing ({@link BatchHelp#share}). Here each sample gets a fresh
 * generator of the same seed, and whether it drew is noted. A sample is exactly what one thread
 * would have made when no sample before it drew (the generator is then as fresh as here), so the
 * samples before the first one that drew are kept, and the batch's worker makes that one and
 * those after it again, itself, in order, with the batch's generator ({@link #made}). A dataset
 * whose draws are keyed on the sample (the vision transforms, {@code SyntheticDataset}) never
 * draws from it, and one whose every sample draws is never shared: only a dataset whose first
 * sample draws nothing and a later one draws has samples made twice, once per loader.
 *
 * <p>A failed sample fails the batch as it would on one thread: the first failure in batch order,
 * unless a sample before it drew (then the batch's worker makes it again, and meets the failure
 * itself). Once a sample fails no further sample is handed out.
 */
final class SharedSamples {

    /** One sample's work: {@code j}, its place in the batch; throws for a failed sample. */
    @FunctionalInterface
    interface SampleWork {
        void run(int j);
    }

    /** Sample {@code j} failed when made by whichever thread made it; {@code getCause()} says why. */
    static final class Failed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int j;

        Failed(int j, Throwable cause) {
            super("sample " + j + " of the batch failed", cause, false, false);
            this.j = j;
        }
    }

    private final int size;
    private final SampleWork work;
    private final WorkerContext context;
    private final long seed;
    private final Stages.Scope stages;
    private final Throwable[] failures;
    private int next;        // the next sample to hand out; guarded by this
    private int running;     // samples handed out and not yet made; guarded by this
    private boolean stopped; // no more samples handed out; guarded by this
    private int firstDraw;   // the first sample (in batch order) that drew; guarded by this
    private int firstFailure; // guarded by this

    /**
     * Samples {@code from} to {@code size - 1} of the batch being made on the calling thread, whose
     * samples before {@code from} are made and drew nothing: its worker's context, its generator's
     * seed and its stage scope are those every helper makes them in.
     */
    SharedSamples(int from, int size, SampleWork work) {
        this.size = size;
        this.work = work;
        this.next = from;
        this.context = WorkerContext.current().orElseThrow(() -> new IllegalStateException("not in a batch's scope"));
        this.seed = WorkerContext.currentRandomSeed();
        this.stages = Stages.current();
        this.failures = new Throwable[size];
        this.firstDraw = size;
        this.firstFailure = size;
    }

    /** Claims and makes samples until none is left to hand out. */
    void help() {
        for (int j = claim(); j >= 0; j = claim()) {
            Throwable failure = null;
            boolean[] drew = {false};
            int place = j;
            try {
                Stages.call(stages, () -> WorkerScope.call(context, seed, () -> {
                    work.run(place);
                    return null;
                }, () -> drew[0] = true));
            } catch (RuntimeException | Error e) {
                failure = e;
            }
            finished(j, drew[0], failure);
        }
    }

    private synchronized int claim() {
        if (stopped || next >= size) {
            return -1;
        }
        running++;
        return next++;
    }

    private synchronized void finished(int j, boolean drew, Throwable failure) {
        running--;
        if (drew) {
            firstDraw = Math.min(firstDraw, j);
        }
        if (failure != null) {
            failures[j] = failure;
            firstFailure = Math.min(firstFailure, j);
            stopped = true; // the samples after it are not needed: the batch fails at it, or is made again before it
        }
        if (running == 0) {
            notifyAll();
        }
    }

    /**
     * Called by the batch's own worker, in the batch's scope: makes samples with the helpers until
     * none is left, waits for those still being made (also when interrupted: it keeps the
     * interrupt), and returns how many samples from the start of the batch are made as one thread
     * would have made them; the caller makes the rest itself, in order.
     *
     * @throws Failed for the first failed sample, when no sample before it drew
     */
    int made() {
        help();
        boolean interrupted = false;
        int drew;
        int failed;
        int handedOut;
        synchronized (this) {
            stopped = true;
            while (running > 0) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true; // a helper may still write into the batch: wait for it all the same
                }
            }
            drew = firstDraw;
            failed = firstFailure;
            handedOut = next; // stopped: no sample is handed out after this
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failed < size && failed <= drew) {
            throw new Failed(failed, failures[failed]);
        }
        return Math.min(drew, handedOut);
    }

    /** Whether some sample drew from its generator (known once {@link #made} has returned). */
    synchronized boolean drew() {
        return firstDraw < size;
    }
}
