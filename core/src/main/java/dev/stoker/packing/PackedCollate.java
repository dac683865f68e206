package dev.stoker.packing;

import dev.stoker.collate.BatchMemory;
import dev.stoker.collate.Collate;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collates {@link PackedRow}s into the fields a language model takes, named as Hugging Face names
 * them: {@code input_ids}, {@code labels}, {@code position_ids}, {@code attention_mask}, each
 * {@code (batch, maxLength)} int64, and for variable-length attention over the flattened batch
 * {@code cu_seqlens} (int32, the rows' segment bounds offset by {@code row * maxLength}, one list
 * from 0 to {@code batch * maxLength}) and {@code max_seqlen} (an int32 scalar), as flash
 * attention's {@code *_varlen_func} kernels take them.
 *
 * <pre>{@code
 * try (Batch b = it.next()) {
 *     Tensor ids = b.tensor("input_ids");          // (8, 2048) int64
 *     Tensor cu = b.tensor("cu_seqlens");          // (segments + 1,) int32
 * }
 * }</pre>
 */
public final class PackedCollate implements Collate<PackedRow> {

    @Override
    public Map<String, Tensor> collate(List<PackedRow> rows, BatchMemory memory) {
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("no rows to collate");
        }
        int n = rows.size();
        int length = rows.getFirst().length();
        Tensor inputIds = memory.allocate(DType.I64, Shape.of(n, length));
        Tensor labels = memory.allocate(DType.I64, Shape.of(n, length));
        Tensor positionIds = memory.allocate(DType.I64, Shape.of(n, length));
        Tensor attentionMask = memory.allocate(DType.I64, Shape.of(n, length));
        int bounds = 1;
        int longest = 0;
        for (PackedRow row : rows) {
            if (row.length() != length) {
                throw new IllegalArgumentException("rows of " + row.length() + " and " + length
                        + " tokens in one batch: the rows of one PackedDataset all have its maxLength");
            }
            bounds += row.cuSeqlens().length - 1;
            longest = Math.max(longest, row.maxSeqlen());
        }
        Tensor cuSeqlens = memory.allocate(DType.I32, Shape.of(bounds));
        int b = 0;
        cuSeqlens.setLong(b++, 0);
        for (int r = 0; r < n; r++) {
            PackedRow row = rows.get(r);
            long base = (long) r * length;
            inputIds.select(r).copyFrom(row.inputIds());
            labels.select(r).copyFrom(row.labels());
            positionIds.select(r).copyFrom(row.positionIds());
            attentionMask.select(r).copyFrom(row.attentionMask());
            int[] cu = row.cuSeqlens();
            for (int k = 1; k < cu.length; k++) {
                cuSeqlens.setLong(b++, base + cu[k]);
            }
        }
        Tensor maxSeqlen = memory.allocate(DType.I32, Shape.scalar());
        maxSeqlen.setLong(0, longest);
        Map<String, Tensor> out = new LinkedHashMap<>();
        out.put("input_ids", inputIds);
        out.put("labels", labels);
        out.put("position_ids", positionIds);
        out.put("attention_mask", attentionMask);
        out.put("cu_seqlens", cuSeqlens);
        out.put("max_seqlen", maxSeqlen);
        return out;
    }
}
