package dev.stoker.djl;

import dev.stoker.loader.Batch;
import dev.stoker.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The tensors a {@link FieldSplit} picks out of one Stoker batch, each with the words that name
 * it in an error ({@code "field 'image' of batch 3 (epoch 0)"}).
 */
record PickedFields(List<Picked> data, List<Picked> labels) {

    record Picked(String name, String what, Tensor tensor) {}

    /** A field of the batch before it is known to be a tensor. */
    private record Field(String name, String words, Object value) {}

    /**
     * @throws IllegalArgumentException when the batch is not a tensor, list or map, a field the
     *     split names is missing, or a picked field is not a tensor
     */
    static PickedFields pick(Batch batch, FieldSplit split) {
        String of = " of batch " + batch.index() + " (epoch " + batch.epoch() + ")";
        Object value = batch.data();
        List<Field> fields = fields(value, of);
        List<Field> data = new ArrayList<>();
        List<Field> labels = new ArrayList<>();
        switch (split) {
            case FieldSplit.FirstIsData f -> {
                data.add(fields.getFirst());
                labels.addAll(fields.subList(1, fields.size()));
            }
            case FieldSplit.ByPosition p -> {
                p.data().forEach(i -> data.add(at(fields, i, of)));
                p.labels().forEach(i -> labels.add(at(fields, i, of)));
            }
            case FieldSplit.ByName n -> {
                if (!(value instanceof Map<?, ?>)) {
                    throw new IllegalArgumentException("batch" + of + " is a " + kind(value) + ", whose fields have no"
                            + " names; name fields only in batches of records or maps, or use FieldSplit.positions");
                }
                n.data().forEach(name -> data.add(named(fields, name, of)));
                n.labels().forEach(name -> labels.add(named(fields, name, of)));
            }
        }
        return new PickedFields(tensors(data, of), tensors(labels, of));
    }

    private static List<Field> fields(Object value, String of) {
        List<Field> fields = new ArrayList<>();
        switch (value) {
            case Tensor t -> fields.add(new Field("batch", "the batch", t));
            case List<?> list -> {
                for (int i = 0; i < list.size(); i++) {
                    fields.add(new Field(Integer.toString(i), "field " + i, list.get(i)));
                }
            }
            case Map<?, ?> map -> map.forEach((k, v) -> fields.add(new Field(String.valueOf(k), "field '" + k + "'", v)));
            case null, default -> throw new IllegalArgumentException("batch" + of + " is a " + kind(value)
                    + "; a StokerDataset takes batches that are a tensor, or a list or map of tensors");
        }
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("batch" + of + " has no fields; DJL needs at least one data tensor");
        }
        return fields;
    }

    private static Field at(List<Field> fields, int position, String of) {
        if (position >= fields.size()) {
            throw new IllegalArgumentException("batch" + of + " has " + fields.size() + " field"
                    + (fields.size() == 1 ? "" : "s") + " " + names(fields) + "; there is no field " + position);
        }
        return fields.get(position);
    }

    private static Field named(List<Field> fields, String name, String of) {
        for (Field f : fields) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("batch" + of + " has no field '" + name + "'; its fields are " + names(fields));
    }

    private static List<Picked> tensors(List<Field> fields, String of) {
        List<Picked> out = new ArrayList<>(fields.size());
        for (Field f : fields) {
            if (!(f.value() instanceof Tensor t)) {
                throw new IllegalArgumentException(f.words() + of + " is a " + kind(f.value()) + ", not a tensor;"
                        + " leave it out with FieldSplit.names or FieldSplit.positions, or collate it into a tensor");
            }
            out.add(new Picked(f.name(), f.words() + of, t));
        }
        return out;
    }

    private static List<String> names(List<Field> fields) {
        return fields.stream().map(Field::name).toList();
    }

    private static String kind(Object value) {
        return value == null ? "null" : value.getClass().getSimpleName();
    }
}
