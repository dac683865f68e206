package dev.stoker.loader.engine;

/**
 * The first batches of a worker pass, one per lane, each made by all the workers: worker
 * {@code w} helps the first batches of lanes {@code 0 .. w-1}, makes its own with the others'
 * help, then helps those of lanes {@code w+1 .. n-1}, and goes on to its own next batch.
 *
 * <p>Why: the first batch of a pass is the one the consumer waits for with nothing to hide the
 * wait, every worker starting at once, and in a new JVM the code that makes a sample still runs
 * in the interpreter. Made by {@code n} workers it comes about {@code n} times sooner, and first
 * batch {@code j} at about {@code (j + 1) / n} of a batch's time, where each came after a whole
 * one before. Sharing the first batch alone would leave the helpers' lanes behind by the part
 * they made of it, and so end the pass that much later (half a batch with 2 workers: 6% of W1's
 * 16-batch epochs); sharing one batch of every lane gives each worker one batch's work, as
 * before. The batches after them are made one per worker, as before, so the memory in flight
 * and the order stay as they were.
 *
 * <p>{@link #NONE}: no sharing (one worker; an autotuned pass, whose lanes wait for permits and
 * whose consumer may make batches itself; a recipe that makes a batch in one call; a dataset
 * found to draw from the batch's generator).
 */
final class FirstBatches {
    /** No sharing: every batch made by its own worker alone. */
    static final FirstBatches NONE = new FirstBatches(new BatchHelp[0]);

    private final BatchHelp[] lanes;

    private FirstBatches(BatchHelp[] lanes) {
        this.lanes = lanes;
    }

    /** The first batches of a pass of {@code workers} lanes; {@code onDraw} as for {@link BatchHelp#forLane}. */
    static FirstBatches forPass(int workers, Runnable onDraw) {
        BatchHelp[] lanes = new BatchHelp[workers];
        for (int w = 0; w < workers; w++) {
            lanes[w] = BatchHelp.forLane(onDraw);
        }
        return new FirstBatches(lanes);
    }

    /** Lane {@code w}'s first batch, to make with the others' help; {@link BatchHelp#NONE} without sharing. */
    BatchHelp lane(int w) {
        return lanes.length == 0 ? BatchHelp.NONE : lanes[w];
    }

    /**
     * Called by worker {@code w} before its first batch: helps the first batches of the lanes
     * before it, each once its worker has posted it (or made it alone).
     *
     * @throws InterruptedException when the pass closes meanwhile
     */
    void helpBefore(int w) throws InterruptedException {
        for (int j = 0; j < w && j < lanes.length; j++) {
            lanes[j].helpFirst();
        }
    }

    /**
     * Called by worker {@code w} after its first batch: helps the first batches of the lanes after it.
     *
     * @throws InterruptedException when the pass closes meanwhile
     */
    void helpAfter(int w) throws InterruptedException {
        for (int j = w + 1; j < lanes.length; j++) {
            lanes[j].helpFirst();
        }
    }
}
