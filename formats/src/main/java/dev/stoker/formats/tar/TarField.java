package dev.stoker.formats.tar;

import dev.stoker.data.SampleLayout;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;

/**
 * One field of a {@link TarTensorStream}: which member of a sample it reads, how that member's
 * bytes are laid out, and the dtype and shape it lands in. One kind per encoding.
 */
sealed interface TarField permits NpyField, IntegerField, RawField {

    /** The field as it lands in the batch: name, dtype, shape. */
    SampleLayout.Field field();

    /** The extension of the member it reads, without the dot: {@code npy}, {@code cls}. */
    String extension();

    /**
     * Writes {@code member}, the data of {@code sample}'s member {@link #extension()}, into
     * {@code row}, every element of it.
     *
     * @throws TarSampleException naming the sample and the member, when the member is not what
     *     the field declares
     */
    void write(TarSample sample, MemorySegment member, Tensor row);

    /** The exception for {@code sample}'s member of this field, saying {@code what} was wrong. */
    default TarSampleException bad(TarSample sample, String what) {
        return new TarSampleException(sample, extension(), field().name(), what);
    }

    /** How the field reads in a message: {@code x: f32 [80, 3000] from .npy}. */
    default String describe() {
        return field() + " from ." + extension();
    }
}
