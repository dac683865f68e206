package dev.stoker.formats.tar;

import dev.stoker.data.SampleLayout;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * A member that is the field's elements and nothing else, little-endian, in C order (what
 * {@code a.astype('<f2').tobytes()} writes): its size must be exactly the field's.
 */
record RawField(SampleLayout.Field field, String extension) implements TarField {

    @Override
    public void write(TarSample sample, MemorySegment member, Tensor row) {
        long expected = field.bytes();
        if (member.byteSize() != expected) {
            throw bad(sample, member.byteSize() + " bytes, but the field is " + field.dtype() + " of shape "
                    + field.shape() + ": " + expected + " bytes of raw little-endian elements");
        }
        NativeOrderCopy.copy(member, 0, ByteOrder.LITTLE_ENDIAN, row);
    }
}
