package dev.stoker.collate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A map becomes a map with the same keys, each to the collated values of that key, in the first
 * sample's key order. Every sample must have exactly the same keys: a key missing from one sample
 * has no value to stack, and silently dropping it would hide a bug in the dataset.
 */
final class MapCollator implements Collator {
    static final MapCollator INSTANCE = new MapCollator();

    private MapCollator() {}

    @Override
    public Object collate(List<?> values, CollateContext ctx) {
        Map<?, ?> first = (Map<?, ?>) values.getFirst();
        for (int i = 1; i < values.size(); i++) {
            Map<?, ?> other = (Map<?, ?>) values.get(i);
            if (!other.keySet().equals(first.keySet())) {
                throw ctx.fail(keysDiffer(first.keySet(), other.keySet(), i));
            }
        }
        Map<Object, Object> out = new LinkedHashMap<>();
        Object[] column = new Object[values.size()];
        for (Object key : first.keySet()) {
            for (int i = 0; i < column.length; i++) {
                column[i] = ((Map<?, ?>) values.get(i)).get(key);
            }
            out.put(key, ctx.collateField(String.valueOf(key), Arrays.asList(column.clone())));
        }
        return out;
    }

    private static String keysDiffer(Set<?> expected, Set<?> actual, int sample) {
        List<Object> missing = new ArrayList<>();
        for (Object k : expected) {
            if (!actual.contains(k)) missing.add(k);
        }
        List<Object> extra = new ArrayList<>();
        for (Object k : actual) {
            if (!expected.contains(k)) extra.add(k);
        }
        StringBuilder sb = new StringBuilder("sample " + sample + " has keys " + actual + " but sample 0 has "
                + expected + ":");
        if (!missing.isEmpty()) sb.append(" missing ").append(missing);
        if (!missing.isEmpty() && !extra.isEmpty()) sb.append(',');
        if (!extra.isEmpty()) sb.append(" extra ").append(extra);
        return sb.toString();
    }
}
