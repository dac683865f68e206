package dev.stoker.formats.tar;

import dev.stoker.data.SampleLayout;
import dev.stoker.formats.npy.NpyFormatException;
import dev.stoker.formats.npy.NpyHeader;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;

/**
 * A {@code .npy} member (what {@code np.save} writes), of exactly the field's dtype and shape, in
 * either byte order and either C or Fortran order; big-endian data is swapped and Fortran-order
 * data transposed on its way into the row, in one pass.
 */
record NpyField(SampleLayout.Field field, String extension) implements TarField {

    @Override
    public void write(TarSample sample, MemorySegment member, Tensor row) {
        String source = sample.key() + "." + extension;
        NpyHeader h;
        try {
            h = NpyHeader.parse(member, source); // checks every size against the member's before reading
        } catch (NpyFormatException e) {
            String detail = e.getMessage().startsWith(source + ": ")
                    ? e.getMessage().substring(source.length() + 2) : e.getMessage();
            throw new TarSampleException(sample, extension, field.name(), "not a .npy array Stoker reads: "
                    + detail, e);
        }
        if (h.dtype() != field.dtype() || !h.shape().equals(field.shape())) {
            throw bad(sample, "the array is " + h.descr().descr() + " (" + h.dtype() + ") of shape " + h.shape()
                    + ", but the field is " + field.dtype() + " of shape " + field.shape());
        }
        h.copyData(member, row.segment()); // swapped and transposed to C order where the member needs it
    }
}
