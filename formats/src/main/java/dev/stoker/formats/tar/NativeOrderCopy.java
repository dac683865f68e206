package dev.stoker.formats.tar;

import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Copies a member's elements into a batch row, swapping bytes when the member's order is not the
 * tensor's (native) one. Only unaligned layouts: a streamed shard's member is a heap segment
 * (alignment 1), a mapped one may sit at any offset of the map.
 */
final class NativeOrderCopy {
    private NativeOrderCopy() {
    }

    /** {@code to.byteSize()} bytes of {@code from}, starting at {@code offset}, in {@code order}, into {@code to}. */
    static void copy(MemorySegment from, long offset, ByteOrder order, Tensor to) {
        long bytes = to.byteSize();
        int width = to.dtype().byteSize();
        if (width == 1 || order == ByteOrder.nativeOrder()) {
            MemorySegment.copy(from, offset, to.segment(), 0, bytes);
            return;
        }
        ValueLayout layout = switch (width) {
            case 2 -> ValueLayout.JAVA_SHORT_UNALIGNED;
            case 4 -> ValueLayout.JAVA_INT_UNALIGNED;
            case 8 -> ValueLayout.JAVA_LONG_UNALIGNED;
            default -> throw new AssertionError("element width " + width);
        };
        // a copy between layouts of different byte orders swaps each element (as NpyFile does)
        MemorySegment.copy(from, layout.withOrder(order), offset, to.segment(),
                layout.withOrder(ByteOrder.nativeOrder()), 0, bytes / width);
    }
}
