package dev.stoker.packing;

/**
 * A run of one example's tokens in a packed row: tokens {@code [offset, offset + length)} of
 * example {@code example} of the source dataset. An example shorter than the row is one segment
 * with offset 0; a long one, split ({@link Overlong#SPLIT}), is several.
 */
public record Segment(long example, int offset, int length) {
}
