package dev.stoker.formats.tokens;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;

/**
 * One training window of a token file: {@code input} is tokens {@code [o, o + seqLen)} and
 * {@code target} the same shifted by one, {@code [o + 1, o + seqLen + 1)}, both int64 of shape
 * {@code (seqLen)}. The default collate makes a batch of them a map
 * {@code {input: (n, seqLen) i64, target: (n, seqLen) i64}}.
 *
 * @param input  the model's input tokens
 * @param target the next token at every position
 */
public record TokenWindow(Tensor input, Tensor target) {

    /**
     * The window of {@code tokens.length - 1} tokens over {@code tokens} itself: input its first
     * tokens, target its last, two views of the one array.
     */
    public static TokenWindow of(long[] tokens) {
        MemorySegment all = MemorySegment.ofArray(tokens);
        int seqLen = tokens.length - 1;
        Shape row = Shape.of(seqLen);
        long bytes = (long) seqLen * Long.BYTES;
        return new TokenWindow(new Tensor(all.asSlice(0, bytes), DType.I64, row),
                new Tensor(all.asSlice(Long.BYTES, bytes), DType.I64, row));
    }
}
