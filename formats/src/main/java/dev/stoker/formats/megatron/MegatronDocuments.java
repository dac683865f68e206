package dev.stoker.formats.megatron;

import dev.stoker.text.TokenDocuments;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A Megatron dataset's sequences as the documents that {@code DocumentWindowDataset} cuts into
 * pretraining windows, as Megatron's {@code GPTDataset} reads them (one sequence is one document
 * of its index; with {@code --split-sentences}, one sentence).
 *
 * <pre>{@code
 * var windows = DocumentWindowDataset.builder(new MegatronDocuments(seqs), 2048).positionIds(true).build();
 * }</pre>
 *
 * @param dataset the sequences; closing it is the caller's
 */
public record MegatronDocuments(MegatronDataset dataset) implements TokenDocuments {

    public MegatronDocuments {
        Objects.requireNonNull(dataset, "dataset");
    }

    @Override
    public long documentCount() {
        return dataset.size();
    }

    @Override
    public int documentLength(long document) {
        return dataset.sequenceLength(document);
    }

    @Override
    public void widen(long document, int from, int count, MemorySegment dst, long dstOffset) {
        dataset.widen(document, from, count, dst, dstOffset);
    }

    @Override
    public String name() {
        return dataset.name();
    }

    /** The {@code .bin}'s path. */
    @Override
    public String source() {
        return dataset.binName();
    }
}
