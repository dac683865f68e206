package dev.stoker.spark;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;

/**
 * One payload column and the member it becomes: {@code <key>.<extension>} holding the column's
 * value as bytes. Binary columns go as they are, strings as UTF-8, integers as their decimal text
 * (WebDataset writes a {@code cls} label as {@code str(int)}, and reads it back with {@code int()}).
 *
 * @param extension the member's extension, e.g. {@code jpg}
 * @param column    the column's name
 * @param index     the column's position in the row
 * @param encoding  how its values become bytes
 */
record PayloadColumn(String extension, String column, int index, Encoding encoding) implements Serializable {

    /** How a column's values become a member's bytes. */
    enum Encoding {
        BYTES, UTF8, DECIMAL_TEXT;

        /** The encoding of a Spark type, or null when none fits. */
        static Encoding of(DataType type) {
            if (type instanceof BinaryType) {
                return BYTES;
            }
            if (type instanceof StringType) {
                return UTF8;
            }
            if (type instanceof ByteType || type instanceof ShortType || type instanceof IntegerType
                    || type instanceof LongType) {
                return DECIMAL_TEXT;
            }
            return null;
        }
    }

    /** The member's bytes for a (non-null) value of this column. */
    byte[] encode(Object value) {
        return switch (encoding) {
            case BYTES -> (byte[]) value;
            case UTF8 -> value.toString().getBytes(StandardCharsets.UTF_8);
            case DECIMAL_TEXT -> Long.toString(((Number) value).longValue()).getBytes(StandardCharsets.US_ASCII);
        };
    }

    /** Why {@code extension} cannot be a member's extension, or null when it can. */
    static String badExtension(String extension) {
        if (extension == null || extension.isEmpty()) {
            return "an extension must not be empty";
        }
        if (extension.indexOf('/') >= 0 || extension.indexOf('\0') >= 0) {
            return "an extension must not contain '/' or NUL";
        }
        if (extension.startsWith(".") || extension.endsWith(".")) {
            return "an extension must not start or end with '.' (write jpg, not .jpg)";
        }
        return null;
    }
}
