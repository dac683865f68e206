package dev.stoker.formats.megatron;

import dev.stoker.tensor.Tensor;

/**
 * One sequence of a {@link PaddedSequences} dataset: its tokens cut or padded to the row length,
 * and how many of them are real. The default collate makes {@code {"tokens": (n, L) i64,
 * "length": (n) i64}} of a batch of them.
 *
 * @param tokens a heap-backed {@code (L)} int64 tensor: the sequence's first tokens, then padding
 * @param length the real tokens at the front of {@code tokens}: the sequence's length, at most L
 */
public record PaddedSequence(Tensor tokens, long length) {}
