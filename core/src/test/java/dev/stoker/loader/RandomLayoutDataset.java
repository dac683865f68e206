package dev.stoker.loader;

import dev.stoker.data.BatchSlots;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleSlot;
import dev.stoker.random.Seeds;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fillable dataset of a seeded random layout (form, dtypes, shapes), whose bytes are a pure
 * function of (seed, index, field, byte): {@code get} returns heap tensors of them in the form the
 * layout declares, {@code fill} writes the same bytes into the slot. With {@code batched} it
 * overrides {@code fillBatch} with a gather of its own. Counts the calls of each kind.
 */
class RandomLayoutDataset implements FillableDataset<Object> {
    private static final DType[] DTYPES = DType.values();

    final AtomicLong gets = new AtomicLong();
    final AtomicLong fills = new AtomicLong();
    final AtomicLong batchFills = new AtomicLong();
    private final long size;
    private final long seed;
    private final SampleLayout layout;

    RandomLayoutDataset(long size, long seed, SampleLayout layout) {
        this.size = size;
        this.seed = seed;
        this.layout = layout;
    }

    /** A layout of 1 to 4 fields of random dtypes and shapes of rank 0 to 3 (dims 1 to 5). */
    static SampleLayout randomLayout(SplittableRandom rnd) {
        SampleLayout.Form form = SampleLayout.Form.values()[rnd.nextInt(3)];
        int count = form == SampleLayout.Form.TENSOR ? 1 : rnd.nextInt(1, 5);
        List<SampleLayout.Field> fields = new ArrayList<>();
        for (int f = 0; f < count; f++) {
            long[] dims = new long[rnd.nextInt(0, 4)];
            for (int d = 0; d < dims.length; d++) {
                dims[d] = rnd.nextInt(1, 6);
            }
            fields.add(new SampleLayout.Field("f" + f, DTYPES[rnd.nextInt(DTYPES.length)], Shape.of(dims)));
        }
        return new SampleLayout(form, fields);
    }

    /** The same dataset, with a {@code fillBatch} of its own. */
    static RandomLayoutDataset batched(long size, long seed, SampleLayout layout) {
        return new RandomLayoutDataset(size, seed, layout) {
            @Override
            public void fillBatch(long[] indices, BatchSlots slots) {
                batchFills.incrementAndGet();
                for (int f = 0; f < layout.size(); f++) {
                    Tensor whole = slots.tensor(f);
                    long row = layout.field(f).bytes();
                    for (int j = 0; j < indices.length; j++) {
                        write(indices[j], f, whole.segment().asSlice(j * row, row));
                    }
                }
            }
        };
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public Object get(long index) {
        gets.incrementAndGet();
        check(index);
        Tensor[] tensors = new Tensor[layout.size()];
        for (int f = 0; f < tensors.length; f++) {
            SampleLayout.Field field = layout.field(f);
            MemorySegment heap = MemorySegment.ofArray(new byte[(int) field.bytes()]);
            write(index, f, heap);
            tensors[f] = new Tensor(heap, field.dtype(), field.shape());
        }
        return switch (layout.form()) {
            case TENSOR -> tensors[0];
            case LIST -> Collections.unmodifiableList(List.of(tensors));
            case MAP -> {
                Map<String, Tensor> map = new LinkedHashMap<>();
                for (int f = 0; f < tensors.length; f++) {
                    map.put(layout.field(f).name(), tensors[f]);
                }
                yield map;
            }
        };
    }

    @Override
    public SampleLayout layout() {
        return layout;
    }

    @Override
    public void fill(long index, SampleSlot slot) {
        fills.incrementAndGet();
        check(index);
        for (int f = 0; f < layout.size(); f++) {
            write(index, f, slot.tensor(f).segment());
        }
    }

    /** Bytes of field {@code f} of sample {@code index}. Bools hold 0 or 1, floats no NaN payload games. */
    void write(long index, int f, MemorySegment dst) {
        long state = Seeds.splitMix(Seeds.mix64(seed ^ (f * 0x9E37L)), index);
        boolean bool = layout.field(f).dtype() == DType.BOOL;
        for (long b = 0; b < dst.byteSize(); b++) {
            long z = Seeds.mix64(state += Seeds.GOLDEN_GAMMA);
            dst.set(java.lang.foreign.ValueLayout.JAVA_BYTE, b, (byte) (bool ? z & 1 : z));
        }
    }

    void check(long index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(name() + ": index " + index + " is outside [0, " + size + ")");
        }
    }

    @Override
    public String name() {
        return "random-layout";
    }
}
