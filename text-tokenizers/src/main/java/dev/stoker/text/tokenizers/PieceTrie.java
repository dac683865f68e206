package dev.stoker.text.tokenizers;

import java.util.HashMap;
import java.util.Map;

/** The pieces of a SentencePiece model as a byte trie, for the unigram model's prefix matches. */
final class PieceTrie {
    private final Map<Integer, Integer> children = new HashMap<>(); // node << 8 | byte -> child
    private int[] values = new int[64];                              // piece id at a node, -1 for none
    private int nodes = 1;

    PieceTrie() {
        java.util.Arrays.fill(values, -1);
    }

    void add(byte[] piece, int id) {
        int node = 0;
        for (byte b : piece) {
            int key = node << 8 | (b & 0xFF);
            Integer child = children.get(key);
            if (child == null) {
                if (nodes >= (1 << 23)) {
                    throw new IllegalArgumentException("more than 8 M trie nodes in the pieces");
                }
                child = nodes++;
                if (child >= values.length) {
                    int old = values.length;
                    values = java.util.Arrays.copyOf(values, old * 2);
                    java.util.Arrays.fill(values, old, values.length, -1);
                }
                children.put(key, child);
            }
            node = child;
        }
        if (values[node] < 0) { // the first of two equal pieces keeps its id (the model refuses duplicates anyway)
            values[node] = id;
        }
    }

    /**
     * Calls {@code visit(endExclusive, id)} for every piece that is a prefix of {@code text[from, to)},
     * shortest first.
     */
    void prefixes(byte[] text, int from, int to, Visitor visit) {
        int node = 0;
        for (int i = from; i < to; i++) {
            Integer child = children.get(node << 8 | (text[i] & 0xFF));
            if (child == null) {
                return;
            }
            node = child;
            if (values[node] >= 0) {
                visit.piece(i + 1, values[node]);
            }
        }
    }

    interface Visitor {
        void piece(int end, int id);
    }
}
