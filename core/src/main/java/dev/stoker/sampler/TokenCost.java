package dev.stoker.sampler;

/**
 * What a batch costs against a token budget ({@link TokenBudgetBatchSampler}).
 */
public enum TokenCost {
    /**
     * Padded to the longest: {@code batchSize * maxLength}, the tokens a padded batch of shape
     * {@code (batchSize, maxLength)} holds (fairseq's {@code max_tokens}). The default.
     */
    PADDED,
    /**
     * Packed: the sum of the lengths, the tokens a variable-length attention kernel
     * ({@code cu_seqlens}) or a flattened batch really computes on.
     */
    PACKED
}
