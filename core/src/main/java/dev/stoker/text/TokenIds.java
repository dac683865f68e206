package dev.stoker.text;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The vocabulary check of token ids on the fill path: is every id in {@code [0, vocabSize)}?
 *
 * <p>It runs once per token of every sample, so it is one branch-free OR per id
 * ({@code id | (vocabSize - 1 - id)} is negative exactly when the id is negative or past the
 * last), a reduction the JIT vectorizes; only a sample that fails is scanned again to find its
 * first bad id for the message.
 *
 * <pre>{@code
 * int bad = TokenIds.firstOutside(ids, 0, ids.length, 32_000);
 * if (bad >= 0) throw new TokenIdException(file, DataPosition.item("document", d), bad, ids[bad], 32_000);
 * }</pre>
 */
public final class TokenIds {

    private TokenIds() {
    }

    /**
     * The place of the first id of {@code ids[from, to)} outside {@code [0, vocabSize)}, or -1
     * when all are inside.
     */
    public static int firstOutside(int[] ids, int from, int to, int vocabSize) {
        int last = vocabSize - 1;
        int any = 0;
        for (int k = from; k < to; k++) {
            int id = ids[k];
            any |= id | (last - id); // no overflow: last >= 0, and a negative id is caught by its own sign
        }
        if (any >= 0) {
            return -1;
        }
        for (int k = from; k < to; k++) {
            if (ids[k] < 0 || ids[k] > last) {
                return k;
            }
        }
        return -1; // not reached
    }

    /**
     * The place of the first of {@code count} int64 ids at byte {@code offset} of {@code ids}
     * outside {@code [0, vocabSize)}, or -1 when all are inside: for ids already written into a
     * batch.
     */
    public static int firstOutside(MemorySegment ids, long offset, int count, int vocabSize) {
        long last = vocabSize - 1L;
        long any = 0;
        for (int k = 0; k < count; k++) {
            long id = ids.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + 8L * k);
            any |= id | (last - id);
        }
        if (any >= 0) {
            return -1;
        }
        for (int k = 0; k < count; k++) {
            long id = ids.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + 8L * k);
            if (id < 0 || id > last) {
                return k;
            }
        }
        return -1;
    }

    /**
     * Checks a vocabulary size given by a caller.
     *
     * @throws IllegalArgumentException for a size below 1
     */
    public static int requireVocabSize(int vocabSize) {
        if (vocabSize < 1) {
            throw new IllegalArgumentException("a vocabulary has at least 1 id, not " + vocabSize);
        }
        return vocabSize;
    }
}
