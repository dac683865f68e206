package dev.stoker.text;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * Documents of token ids, each reachable by its number: what {@link DocumentWindowDataset} cuts
 * into windows. A Megatron dataset ({@code MegatronDocuments} in the formats module), a token
 * file cut by an index, or documents in memory ({@link #of}).
 */
public interface TokenDocuments {

    /** The number of documents. */
    long documentCount();

    /** The length in tokens of {@code document}. */
    int documentLength(long document);

    /**
     * Writes tokens {@code [from, from + count)} of {@code document} into {@code dst} as int64
     * from byte {@code dstOffset}. Called from several workers at once.
     */
    void widen(long document, int from, int count, MemorySegment dst, long dstOffset);

    /** A name for error messages. */
    default String name() {
        return getClass().getSimpleName();
    }

    /**
     * The file the documents are read from, for a {@link dev.stoker.data.DataFormatException}'s
     * source (a bad token id names it); the default is {@link #name()}.
     */
    default String source() {
        return name();
    }

    /** Documents held in memory, one array of ids each (pre-tokenized data, tests). */
    static TokenDocuments of(List<int[]> documents) {
        List<int[]> docs = List.copyOf(documents);
        return new TokenDocuments() {
            @Override
            public long documentCount() {
                return docs.size();
            }

            @Override
            public int documentLength(long document) {
                return docs.get((int) document).length;
            }

            @Override
            public void widen(long document, int from, int count, MemorySegment dst, long dstOffset) {
                int[] d = docs.get((int) document);
                java.util.Objects.checkFromIndexSize(from, count, d.length);
                for (int k = 0; k < count; k++) {
                    dst.set(ValueLayout.JAVA_LONG_UNALIGNED, dstOffset + 8L * k, d[from + k]);
                }
            }

            @Override
            public String name() {
                return docs.size() + " documents in memory";
            }
        };
    }
}
