package dev.stoker.spark;

import java.io.Serializable;

/**
 * What every executor of a {@link TokenPacker} job needs, sent with the task: where to write, the
 * text column, the tokenizer file (opened by each executor), the end-of-text token and the dtype.
 */
record TokenPlan(String outputDir, String name, int textIndex, String textColumn, String tokenizer, int eos,
                 String dtype) implements Serializable {
    static final String STAGING = "_stoker_staging";

    /** The prefix of partition {@code p}'s Megatron shard. */
    String partName(int partition) {
        return String.format("%s-%05d", name, partition);
    }
}
