package dev.stoker.text;

import java.util.OptionalInt;

/**
 * A tokenizer's special tokens, each present or not: {@code bos} begins a sequence, {@code eos}
 * ends a document (GPT-2's {@code <|endoftext|>}, Llama's {@code </s>}), {@code pad} fills a row,
 * {@code unk} stands for what the vocabulary lacks.
 *
 * @param bos beginning of sequence
 * @param eos end of sequence or document
 * @param pad padding
 * @param unk unknown
 */
public record SpecialTokens(OptionalInt bos, OptionalInt eos, OptionalInt pad, OptionalInt unk) {

    /** No special tokens at all. */
    public static SpecialTokens none() {
        return new SpecialTokens(OptionalInt.empty(), OptionalInt.empty(), OptionalInt.empty(), OptionalInt.empty());
    }

    /** Ids below 0 mean "none", as SentencePiece's model writes {@code -1} for a disabled token. */
    public static SpecialTokens of(int bos, int eos, int pad, int unk) {
        return new SpecialTokens(id(bos), id(eos), id(pad), id(unk));
    }

    /** This set with {@code eos} as the end-of-document token. */
    public SpecialTokens withEos(int eos) {
        return new SpecialTokens(bos, id(eos), pad, unk);
    }

    private static OptionalInt id(int id) {
        return id < 0 ? OptionalInt.empty() : OptionalInt.of(id);
    }
}
