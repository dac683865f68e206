package dev.stoker.collate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Text stays text: a batch of strings (any {@code CharSequence}) is a list of strings, as in PyTorch. */
final class StringCollator implements Collator {
    static final StringCollator INSTANCE = new StringCollator();

    private StringCollator() {}

    @Override
    public Object collate(List<?> values, CollateContext ctx) {
        List<String> out = new ArrayList<>(values.size());
        for (Object v : values) {
            out.add(v.toString());
        }
        return Collections.unmodifiableList(out);
    }
}
