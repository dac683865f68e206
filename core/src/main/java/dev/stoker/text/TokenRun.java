package dev.stoker.text;

/**
 * One window of {@link DocumentWindowStream}: {@code seqLen + 1} token ids cut from a worker's
 * documents laid end to end, and where documents start inside it.
 *
 * @param tokens         the window's ids: input is the first {@code seqLen}, target the last
 * @param documentStarts positions in {@code tokens}, ascending, where a document's first token is
 *                       (its first token is not listed)
 */
public record TokenRun(int[] tokens, int[] documentStarts) {
}
