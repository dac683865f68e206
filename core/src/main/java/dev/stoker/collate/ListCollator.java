package dev.stoker.collate;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A list is a fixed-size tuple of fields: the result is a list with one collated value per
 * position, as PyTorch collates a tuple {@code (image, label)} into {@code [images, labels]}.
 * Every sample must have the same number of elements.
 */
final class ListCollator implements Collator {
    static final ListCollator INSTANCE = new ListCollator();

    private ListCollator() {}

    @Override
    public Object collate(List<?> values, CollateContext ctx) {
        int size = ((List<?>) values.getFirst()).size();
        for (int i = 1; i < values.size(); i++) {
            int other = ((List<?>) values.get(i)).size();
            if (other != size) {
                throw ctx.fail("sample 0 has " + size + " elements but sample " + i + " has " + other
                        + "; every sample must have the same number of elements");
            }
        }
        Object[] out = new Object[size];
        Object[] column = new Object[values.size()];
        for (int p = 0; p < size; p++) {
            for (int i = 0; i < column.length; i++) {
                column[i] = ((List<?>) values.get(i)).get(p);
            }
            out[p] = ctx.collateElement(p, Arrays.asList(column.clone()));
        }
        return Collections.unmodifiableList(Arrays.asList(out));
    }
}
