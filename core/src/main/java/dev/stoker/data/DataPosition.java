package dev.stoker.data;

import java.util.Objects;

/**
 * Where in a file a {@link DataFormatException} was found, in the unit the format counts in: a
 * byte offset, a line, a row, a numbered item (a sample, a member, a sequence, a page), a named
 * one (a key, an array, a column), the file as a whole, or (readers not yet converted) the words
 * of the message. Each one's {@code toString()} is the words a message uses:
 * {@code "byte offset 1536"}, {@code "line 17"}, {@code "sample 42"}, {@code "key 'img-00017'"}.
 *
 * <pre>{@code
 * throw new DataFormatException(path.toString(), DataPosition.line(17), "not valid JSON");
 * }</pre>
 */
public sealed interface DataPosition {

    /** A byte offset in the file, from 0. */
    record ByteOffset(long offset) implements DataPosition {
        @Override
        public String toString() {
            return "byte offset " + offset;
        }
    }

    /** A line of a text file, from 1. */
    record Line(long line) implements DataPosition {
        @Override
        public String toString() {
            return "line " + line;
        }
    }

    /** A row of a table or array, from 0. */
    record Row(long row) implements DataPosition {
        @Override
        public String toString() {
            return "row " + row;
        }
    }

    /**
     * A numbered item of the file, from 0, counted as the format counts them.
     *
     * @param unit  what is counted, for messages: "sample", "member", "sequence", "page", "shard"
     * @param index the item's number
     */
    record Item(String unit, long index) implements DataPosition {
        public Item {
            Objects.requireNonNull(unit, "unit");
        }

        @Override
        public String toString() {
            return unit + " " + index;
        }
    }

    /**
     * A named part of the file.
     *
     * @param unit what is named, for messages: "key", "array", "column", "sample"
     * @param name its name, as the file spells it
     */
    record Named(String unit, String name) implements DataPosition {
        public Named {
            Objects.requireNonNull(unit, "unit");
            Objects.requireNonNull(name, "name");
        }

        @Override
        public String toString() {
            return unit + " '" + name + "'";
        }
    }

    /**
     * The file as a whole (it is missing, empty, not of the format at all), or a place the reader
     * names only in words, in the exception's {@code what}.
     */
    record WholeFile() implements DataPosition {
        @Override
        public String toString() {
            return "the file as a whole";
        }
    }

    /**
     * A place the reader gives only in the words of its message ({@code "data.h5: array 'x', chunk
     * 3: ..."}), not yet as a typed value: the errors of readers whose messages are written whole.
     */
    record InMessage() implements DataPosition {
        @Override
        public String toString() {
            return "the place the message names";
        }
    }

    /** Byte {@code offset} of the file. */
    static DataPosition byteOffset(long offset) {
        return new ByteOffset(offset);
    }

    /** Line {@code line} (from 1) of a text file. */
    static DataPosition line(long line) {
        return new Line(line);
    }

    /** Row {@code row} (from 0). */
    static DataPosition row(long row) {
        return new Row(row);
    }

    /** Item {@code index} of the kind {@code unit} ("sample", "member", "sequence"). */
    static DataPosition item(String unit, long index) {
        return new Item(unit, index);
    }

    /** The part of kind {@code unit} ("key", "array") called {@code name}. */
    static DataPosition named(String unit, String name) {
        return new Named(unit, name);
    }

    /** A place the message names in words. */
    static DataPosition inMessage() {
        return new InMessage();
    }

    /** The file as a whole. */
    static DataPosition wholeFile() {
        return new WholeFile();
    }
}
