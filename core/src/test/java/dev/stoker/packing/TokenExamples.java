package dev.stoker.packing;

import dev.stoker.data.Dataset;

/**
 * Test helper: example {@code i} has {@code lengths[i]} tokens {@code 10000 * i + t}, so a token names its
 * example and place.
 */
final class TokenExamples implements Dataset<int[]> {
    private final int[] lengths;

    TokenExamples(int[] lengths) {
        this.lengths = lengths;
    }

    static int token(long example, int t) {
        return (int) (10_000 * example + t);
    }

    @Override
    public long size() {
        return lengths.length;
    }

    @Override
    public int[] get(long index) {
        int[] out = new int[lengths[(int) index]];
        for (int t = 0; t < out.length; t++) {
            out[t] = token(index, t);
        }
        return out;
    }
}
