package dev.stoker.formats.hdf5;

import dev.stoker.tensor.DType;
import io.jhdf.object.datatype.DataType;
import io.jhdf.object.datatype.FixedPoint;
import io.jhdf.object.datatype.FloatingPoint;
import java.nio.ByteOrder;
import java.util.Optional;

/** HDF5 element types Stoker reads: integers and IEEE floats of the sizes {@link DType} has. */
final class Hdf5Types {
    private Hdf5Types() {
    }

    /** The dtype of an HDF5 type, or empty when Stoker has none for it (strings, compounds, u32, u64...). */
    static Optional<DType> dtypeOf(DataType type) {
        return switch (type) {
            case FixedPoint f when f.getBitOffset() == 0 && f.getBitPrecision() == 8 * f.getSize() ->
                    switch (f.getSize()) {
                        case 1 -> Optional.of(f.isSigned() ? DType.I8 : DType.U8);
                        case 2 -> Optional.of(f.isSigned() ? DType.I16 : DType.U16);
                        case 4 -> f.isSigned() ? Optional.of(DType.I32) : Optional.empty();
                        case 8 -> f.isSigned() ? Optional.of(DType.I64) : Optional.empty();
                        default -> Optional.empty();
                    };
            case FloatingPoint f -> switch (f.getSize()) {
                case 2 -> Optional.of(DType.F16);
                case 4 -> Optional.of(DType.F32);
                case 8 -> Optional.of(DType.F64);
                default -> Optional.empty();
            };
            default -> Optional.empty();
        };
    }

    /** The byte order of the type's elements (big-endian files exist: h5py's {@code dtype=">f4"}). */
    static ByteOrder orderOf(DataType type) {
        return switch (type) {
            case FixedPoint f -> f.getByteOrder();
            case FloatingPoint f -> f.getByteOrder();
            default -> ByteOrder.LITTLE_ENDIAN;
        };
    }

    /** A readable name of the type for error messages. */
    static String describe(DataType type) {
        return type.getClass().getSimpleName() + " of " + type.getSize() + " bytes";
    }
}
