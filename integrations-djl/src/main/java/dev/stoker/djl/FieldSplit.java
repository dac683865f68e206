package dev.stoker.djl;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Which fields of a Stoker batch DJL gets as the data (the model's inputs) and which as the
 * labels (what the loss compares with), in order. Fields not named are left out.
 *
 * <p>A batch's fields are its tensors: the batch itself when the samples were tensors, the
 * elements of a list (samples that were lists, e.g. {@code TensorDataset.of(x, y)}), or the
 * entries of a map in its order (samples that were records or maps).
 *
 * <pre>{@code
 * FieldSplit.firstIsData();                                   // the default: [x] and [y, ...]
 * FieldSplit.names(List.of("image"), List.of("label"));       // records and maps
 * FieldSplit.positions(List.of(0, 1), List.of(2));            // lists (or maps, in their order)
 * }</pre>
 */
public sealed interface FieldSplit {

    /** The first field is the data, every other field a label, in the batch's order. */
    static FieldSplit firstIsData() {
        return FirstIsData.INSTANCE;
    }

    /**
     * Fields by name, for batches of records or maps.
     *
     * @throws IllegalArgumentException when there is no data field, a name is blank, or a name is
     *     given twice
     */
    static FieldSplit names(List<String> data, List<String> labels) {
        return new ByName(data, labels);
    }

    /**
     * Fields by position from 0, for batches of lists (and of maps, in the map's order).
     *
     * @throws IllegalArgumentException when there is no data field, a position is negative, or a
     *     position is given twice
     */
    static FieldSplit positions(List<Integer> data, List<Integer> labels) {
        return new ByPosition(data, labels);
    }

    /** See {@link #firstIsData()}. */
    enum FirstIsData implements FieldSplit {
        INSTANCE;

        @Override
        public String toString() {
            return "FieldSplit(first field is data, the rest labels)";
        }
    }

    /** See {@link #names}. */
    record ByName(List<String> data, List<String> labels) implements FieldSplit {
        public ByName {
            data = List.copyOf(Objects.requireNonNull(data, "data"));
            labels = List.copyOf(Objects.requireNonNull(labels, "labels"));
            checkData(data.isEmpty());
            Set<String> seen = new HashSet<>();
            for (String name : concat(data, labels)) {
                if (name.isBlank()) {
                    throw new IllegalArgumentException("a field name is blank in data " + data + ", labels " + labels);
                }
                if (!seen.add(name)) {
                    throw new IllegalArgumentException("field '" + name + "' is named twice in data " + data
                            + ", labels " + labels);
                }
            }
        }
    }

    /** See {@link #positions}. */
    record ByPosition(List<Integer> data, List<Integer> labels) implements FieldSplit {
        public ByPosition {
            data = List.copyOf(Objects.requireNonNull(data, "data"));
            labels = List.copyOf(Objects.requireNonNull(labels, "labels"));
            checkData(data.isEmpty());
            Set<Integer> seen = new HashSet<>();
            for (int position : concat(data, labels)) {
                if (position < 0) {
                    throw new IllegalArgumentException("field positions start at 0, not " + position + " (data "
                            + data + ", labels " + labels + ")");
                }
                if (!seen.add(position)) {
                    throw new IllegalArgumentException("field " + position + " is named twice in data " + data
                            + ", labels " + labels);
                }
            }
        }
    }

    private static void checkData(boolean empty) {
        if (empty) {
            throw new IllegalArgumentException("a FieldSplit needs at least one data field (the model's input);"
                    + " labels may be empty");
        }
    }

    private static <E> List<E> concat(List<E> a, List<E> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
