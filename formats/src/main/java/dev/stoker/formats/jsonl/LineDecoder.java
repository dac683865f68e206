package dev.stoker.formats.jsonl;

import java.nio.file.Path;
import java.util.Arrays;

/** Turns one line's bytes (no newline) into a sample; errors name the file and the line. */
@FunctionalInterface
interface LineDecoder<T> {
    T decode(byte[] line, int length, Path file, long lineNumber);

    /** The line's bytes, as they are in the file. */
    static LineDecoder<byte[]> raw() {
        return (line, length, file, lineNumber) -> Arrays.copyOf(line, length);
    }

    /** The string value of top-level field {@code name} of the line's JSON object. */
    static LineDecoder<String> field(String name) {
        return fieldAs(name, JsonField::string);
    }

    /** Top-level field {@code name} of the line's JSON object, an array of int32 integers (token ids). */
    static LineDecoder<int[]> intList(String name) {
        return fieldAs(name, JsonField::intList);
    }

    /** How one field's value is read out of a line by {@link JsonField}. */
    @FunctionalInterface
    interface FieldReader<T> {
        T read(byte[] line, int length, String name) throws JsonField.Bad, JsonField.NotAString;
    }

    /** Field {@code name} read by {@code reader}; a bad line, a wrong type or no such field is named. */
    private static <T> LineDecoder<T> fieldAs(String name, FieldReader<T> reader) {
        java.util.Objects.requireNonNull(name, "name");
        return (line, length, file, lineNumber) -> {
            T v;
            try {
                v = reader.read(line, length, name);
            } catch (JsonField.Bad e) {
                throw new JsonlLineException(file, lineNumber, "not a JSON object: " + e.getMessage());
            } catch (JsonField.NotAString e) {
                throw new JsonlLineException(file, lineNumber, e.getMessage());
            }
            if (v == null) {
                throw new JsonlLineException(file, lineNumber, "the object has no field \"" + name + "\"");
            }
            return v;
        };
    }

    /** The length of {@code line[0, length)} without a final {@code '\r'} (a CRLF file's lines). */
    static int stripCr(byte[] line, int length) {
        return length > 0 && line[length - 1] == '\r' ? length - 1 : length;
    }
}
