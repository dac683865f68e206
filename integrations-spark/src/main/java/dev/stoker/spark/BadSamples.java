package dev.stoker.spark;

/**
 * What {@link ShardPacker} does with a row it cannot write as a sample: a null or invalid key, a
 * null payload, or a key equal to the row before it (the two would merge into one sample on
 * reading, with two members of each field).
 */
public enum BadSamples {
    /** Fail the job with a {@link BadSampleException} naming the partition, the key and the reason (the default). */
    FAIL,
    /** Leave the row out, count it in the {@link PackSummary}, and keep a few of the reasons. */
    SKIP
}
