package dev.stoker.text;

import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields of a window of {@code seqLen} tokens cut across documents, all int64 of shape
 * {@code (seqLen)}: {@code input}, {@code target} (input shifted by one), and optionally
 * {@code position_ids}, restarting at 0 where a document starts (Megatron's
 * {@code reset_position_ids}; the window's first token is position 0 as there), and
 * {@code document_ids}, 0 for the window's first document, 1 for the next..., for a
 * block-causal mask (Megatron's {@code reset_attention_mask}).
 *
 * @param seqLen      tokens in the input
 * @param positionIds whether to write {@code position_ids}
 * @param documentIds whether to write {@code document_ids}
 */
record WindowFields(int seqLen, boolean positionIds, boolean documentIds) {

    WindowFields {
        if (seqLen < 1) {
            throw new IllegalArgumentException("a window holds at least 1 token, not " + seqLen);
        }
    }

    SampleLayout layout() {
        Shape row = Shape.of(seqLen);
        List<SampleLayout.Field> fields = new ArrayList<>();
        fields.add(new SampleLayout.Field("input", DType.I64, row));
        fields.add(new SampleLayout.Field("target", DType.I64, row));
        if (positionIds) {
            fields.add(new SampleLayout.Field("position_ids", DType.I64, row));
        }
        if (documentIds) {
            fields.add(new SampleLayout.Field("document_ids", DType.I64, row));
        }
        return SampleLayout.of(fields.toArray(SampleLayout.Field[]::new));
    }

    /** Writes the optional fields, given where documents start inside the input ({@code starts[0, count)}, ascending). */
    void writeBoundaries(SampleSlot slot, int[] starts, int count) {
        if (positionIds) {
            MemorySegment p = slot.tensor(2).segment();
            int from = 0;
            int next = 0;
            for (int k = 0; k < seqLen; k++) {
                while (next < count && starts[next] <= k) {
                    from = starts[next++];
                }
                p.setAtIndex(ValueLayout.JAVA_LONG, k, k - from);
            }
        }
        if (documentIds) {
            MemorySegment d = slot.tensor(positionIds ? 3 : 2).segment();
            int doc = 0;
            int next = 0;
            for (int k = 0; k < seqLen; k++) {
                while (next < count && starts[next] <= k) {
                    if (starts[next++] > 0) {
                        doc++;
                    }
                }
                d.setAtIndex(ValueLayout.JAVA_LONG, k, doc);
            }
        }
    }

    /** The sample as {@code get} returns it: the fields' tensors by name, in the layout's order. */
    Map<String, Tensor> heapSample(java.util.function.Consumer<SampleSlot> fill) {
        SampleLayout layout = layout();
        List<Tensor> tensors = new ArrayList<>();
        for (SampleLayout.Field f : layout.fields()) {
            tensors.add(new Tensor(MemorySegment.ofArray(new long[seqLen]), DType.I64, Shape.of(1, seqLen)));
        }
        dev.stoker.data.BatchSlots slots = new dev.stoker.data.BatchSlots(layout, tensors);
        fill.accept(slots.slot(0));
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (int i = 0; i < tensors.size(); i++) {
            out.put(layout.field(i).name(), tensors.get(i).reshape(Shape.of(seqLen)));
        }
        return out;
    }
}
