package dev.stoker.spark;

/**
 * A row that cannot become a sample: thrown on the executor under {@link BadSamples#FAIL}, and on
 * the driver by {@link ShardPacker#pack} (found in the failed job's cause chain), e.g.
 *
 * <pre>
 * partition 2, sample key "img-000042": column "image" (member .jpg) is null; every payload column
 * needs a value in every row (filter the rows, or onBadSample(BadSamples.SKIP))
 * </pre>
 */
public final class BadSampleException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final int partition;
    private final String key;

    BadSampleException(int partition, String key, String reason) {
        super(describe(partition, key, reason));
        this.partition = partition;
        this.key = key;
    }

    BadSampleException(String message, int partition, String key, Throwable cause) {
        super(message, cause);
        this.partition = partition;
        this.key = key;
    }

    static String describe(int partition, String key, String reason) {
        return "partition " + partition + ", " + (key == null ? "a row with a null key" : "sample key \"" + key + "\"")
                + ": " + reason;
    }

    /** The Spark partition the row was in. */
    public int partition() {
        return partition;
    }

    /** The row's key, or null when the key itself was null. */
    public String key() {
        return key;
    }
}
