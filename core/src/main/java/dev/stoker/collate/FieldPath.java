package dev.stoker.collate;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a value sits inside a sample: a chain of field names (record components, map keys) and
 * element positions (of lists), outermost first. Only used to say where a collate error happened,
 * in words a person reads without knowing the code.
 *
 * <pre>{@code
 * FieldPath.root().field("image");              // field 'image'
 * FieldPath.root().field("pair").element(0);    // element 0 of field 'pair'
 * FieldPath.root().field("meta").field("id");   // field 'meta.id'
 * FieldPath.root();                             // the samples
 * }</pre>
 */
public final class FieldPath {
    private static final FieldPath ROOT = new FieldPath(null, null, -1);

    private final FieldPath parent;
    private final String name; // null for an element step
    private final int index;

    private FieldPath(FieldPath parent, String name, int index) {
        this.parent = parent;
        this.name = name;
        this.index = index;
    }

    /** The samples themselves. */
    public static FieldPath root() {
        return ROOT;
    }

    public boolean isRoot() {
        return parent == null;
    }

    /** The field (record component or map key) called {@code name} of this value. */
    public FieldPath field(String name) {
        return new FieldPath(this, String.valueOf(name), -1);
    }

    /** The element at {@code index} of this value, a list. */
    public FieldPath element(int index) {
        return new FieldPath(this, null, index);
    }

    /** The path in words: {@code the samples}, {@code field 'a.b'}, {@code element 1 of field 'pair'}. */
    @Override
    public String toString() {
        List<FieldPath> steps = new ArrayList<>();
        for (FieldPath p = this; !p.isRoot(); p = p.parent) {
            steps.addFirst(p);
        }
        return steps.isEmpty() ? "the samples" : describe(steps, steps.size());
    }

    // Reads innermost first, as a person says it: consecutive names join with dots
    // ("field 'meta.id'"), an element step wraps what encloses it ("element 0 of field 'pair'").
    private static String describe(List<FieldPath> steps, int end) {
        FieldPath last = steps.get(end - 1);
        int start = end;
        String here;
        if (last.name == null) {
            start = end - 1;
            here = "element " + last.index;
        } else {
            while (start > 0 && steps.get(start - 1).name != null) {
                start--;
            }
            StringBuilder dotted = new StringBuilder();
            for (int i = start; i < end; i++) {
                if (i > start) dotted.append('.');
                dotted.append(steps.get(i).name);
            }
            here = "field '" + dotted + "'";
        }
        return start == 0 ? here : here + " of " + describe(steps, start);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldPath p && toString().equals(p.toString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }
}
