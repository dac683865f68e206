package dev.stoker.packing;

/** What {@link PackedDataset} does with an example longer than a row. */
public enum Overlong {
    /**
     * Keep its first {@code maxLength} tokens and drop the rest: what TRL's {@code pack_dataset}
     * does with its default best-fit-decreasing strategy (each example sliced to
     * {@code seq_length} before packing). The default.
     */
    TRUNCATE,
    /**
     * Cut it into pieces of {@code maxLength} tokens (the last shorter), each packed as an example
     * of its own: positions restart and the first token of each piece is not a target.
     */
    SPLIT
}
