package dev.stoker.formats.parquet;

import dev.hardwood.metadata.PhysicalType;
import dev.hardwood.schema.ColumnSchema;
import dev.stoker.tensor.DType;

/**
 * What a projected column holds, as a sample sees it: a scalar of a Parquet physical type, a
 * string or binary, or a list of one numeric type (Parquet's three-level {@code LIST}).
 */
public enum ColumnKind {
    INT32(DType.I32, false), INT64(DType.I64, false), FLOAT(DType.F32, false), DOUBLE(DType.F64, false),
    STRING(null, false), BINARY(null, false),
    INT32_LIST(DType.I32, true), INT64_LIST(DType.I64, true), FLOAT_LIST(DType.F32, true),
    DOUBLE_LIST(DType.F64, true);

    private final DType dtype;
    private final boolean list;

    ColumnKind(DType dtype, boolean list) {
        this.dtype = dtype;
        this.list = list;
    }

    /** The element type of a numeric column or list, or {@code null} for strings and binaries. */
    public DType dtype() {
        return dtype;
    }

    /** Whether each row holds a list of values. */
    public boolean isList() {
        return list;
    }

    /** Whether the column has a fixed width per value, so that the fill path can write it. */
    public boolean isNumeric() {
        return dtype != null;
    }

    /** The kind of a leaf column, or {@code null} when Stoker does not read it (nested deeper than one list, booleans, int96, fixed-length binaries). */
    static ColumnKind of(ColumnSchema leaf) {
        if (leaf.maxRepetitionLevel() > 1) {
            return null;
        }
        boolean repeated = leaf.maxRepetitionLevel() == 1;
        PhysicalType t = leaf.type();
        return switch (t) {
            case INT32 -> repeated ? INT32_LIST : INT32;
            case INT64 -> repeated ? INT64_LIST : INT64;
            case FLOAT -> repeated ? FLOAT_LIST : FLOAT;
            case DOUBLE -> repeated ? DOUBLE_LIST : DOUBLE;
            case BYTE_ARRAY -> repeated ? null : isString(leaf) ? STRING : BINARY;
            default -> null;
        };
    }

    private static boolean isString(ColumnSchema leaf) {
        return leaf.logicalType() instanceof dev.hardwood.metadata.LogicalType.StringType
                || leaf.logicalType() instanceof dev.hardwood.metadata.LogicalType.JsonType
                || leaf.logicalType() instanceof dev.hardwood.metadata.LogicalType.EnumType;
    }
}
