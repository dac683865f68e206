package dev.stoker.formats.tokens;

import dev.stoker.tensor.DType;

/**
 * The width of the tokens in a flat token file: little-endian unsigned 16-bit (vocabularies up
 * to 65,536, GPT-2's 50,257 among them) or 32-bit, as GPT-NeoX, Megatron-LM and nanoGPT write
 * them.
 */
public enum TokenType {
    U16(2),
    U32(4);

    private final int bytes;

    TokenType(int bytes) {
        this.bytes = bytes;
    }

    /** Bytes per token. */
    public int bytes() {
        return bytes;
    }

    /** The tensor type of one token as stored: {@code U16}, or {@code I32} for {@code U32} (same bits). */
    public DType storedType() {
        return this == U16 ? DType.U16 : DType.I32;
    }
}
