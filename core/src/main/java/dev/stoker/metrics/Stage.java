package dev.stoker.metrics;

/**
 * A stage of the way a batch travels, as a loader times it. The loader times {@link #FETCH},
 * {@link #COLLATE}, {@link #MEMORY} and the consumer's stages itself; a dataset that wants its
 * {@link #READ}, {@link #DECODE} and {@link #TRANSFORM} seen times them with {@link Stages}, and
 * whatever copies a batch to the device times {@link #COPY} on the loader's clock.
 *
 * <p>Stages nest: read, decode, transform and memory happen inside fetch (or, for memory, inside
 * collate), so their times are parts of it, not additions to it.
 *
 * <pre>{@code
 * long t = Stages.start();
 * Image image = decoder.decode(bytes);
 * Stages.end(Stage.DECODE, t);
 * }</pre>
 */
public enum Stage {
    /** Bytes from storage: a file, a shard member, a database value. Part of fetch. */
    READ("read", true),
    /** Bytes to a sample: JPEG decode, parsing. Part of fetch. */
    DECODE("decode", true),
    /** Per-sample work on a decoded sample: crop, resize, normalize. Part of fetch. */
    TRANSFORM("transform", true),
    /** A worker waiting for pool memory (back-pressure): part of fetch on the fill path, of collate otherwise. */
    MEMORY("memory wait", true),
    /** A worker getting a batch's samples from the dataset (get, getBatch, fill, a stream's next), all of it. */
    FETCH("fetch", false),
    /** A worker putting a batch's samples together into its tensors (none on the fill path). */
    COLLATE("collate", false),
    /**
     * A made batch copied to where the step reads it: device memory (or pinned host memory on
     * the way), timed by the code that copies, where it copies (a device prefetcher's feeder, on
     * the loader's clock). Its own whole, after collate; none where nothing copies.
     */
    COPY("copy", false),
    /** The consumer waiting for the first batch of a pass: start-up, not steady state. */
    FIRST_BATCH("first batch", false),
    /** The consumer waiting for a batch (after the first of its pass): the loader is late. */
    WAIT("wait", false),
    /** The consumer's own time between taking one batch and asking for the next: the training step. */
    STEP("step", false);

    private final String label;
    private final boolean part;

    Stage(String label, boolean part) {
        this.label = label;
        this.part = part;
    }

    /** The name in reports and traces: {@code "memory wait"}. */
    public String label() {
        return label;
    }

    /** Whether the stage is a part of another one's time ({@link #FETCH} or {@link #COLLATE}) rather than a whole. */
    public boolean isPart() {
        return part;
    }
}
