package dev.stoker.formats.tokens;

import dev.stoker.tensor.Tensor;

/**
 * One training window of a token file: {@code input} is tokens {@code [o, o + seqLen)} and
 * {@code target} the same shifted by one, {@code [o + 1, o + seqLen + 1)}, both int64 of shape
 * {@code (seqLen)}. The default collate makes a batch of them a map
 * {@code {input: (n, seqLen) i64, target: (n, seqLen) i64}}.
 *
 * @param input  the model's input tokens
 * @param target the next token at every position
 */
public record TokenWindow(Tensor input, Tensor target) {}
