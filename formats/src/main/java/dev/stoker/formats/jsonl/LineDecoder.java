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
        java.util.Objects.requireNonNull(name, "name");
        return (line, length, file, lineNumber) -> {
            String v;
            try {
                v = JsonField.string(line, length, name);
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

    /** Top-level field {@code name} of the line's JSON object, an array of int32 integers (token ids). */
    static LineDecoder<int[]> intList(String name) {
        java.util.Objects.requireNonNull(name, "name");
        return (line, length, file, lineNumber) -> {
            int[] v;
            try {
                v = JsonField.intList(line, length, name);
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
