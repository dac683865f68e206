package dev.stoker.contract;

import dev.stoker.tensor.Tensor;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What the contracts compare: samples' contents as a multiset, batches as their tensors' bytes. */
public final class Contents {
    private Contents() {
    }

    /** A content value that compares arrays by their elements, so that it can be counted in a map. */
    private record Key(Object value) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.deepEquals(new Object[] {value}, new Object[] {k.value});
        }

        @Override
        public int hashCode() {
            return Arrays.deepHashCode(new Object[] {value});
        }

        @Override
        public String toString() {
            String s = toFullString();
            return s.length() > 120 ? s.substring(0, 120) + "..." : s;
        }

        String toFullString() {
            String s = Arrays.deepToString(new Object[] {value});
            return s.substring(1, s.length() - 1);
        }
    }

    /** A content as a value whose equals compares arrays by their elements (they are written out). */
    public static Object normal(Object content) {
        return content != null && content.getClass().isArray() ? new Key(content).toFullString() : content;
    }

    /** How many times each content occurs: the contents compared whatever their order. */
    public static Map<Object, Integer> multiset(List<?> contents) {
        Map<Object, Integer> counts = new HashMap<>();
        for (Object c : contents) {
            counts.merge(new Key(c), 1, Integer::sum);
        }
        return counts;
    }

    /**
     * A batch's data as text, a line per tensor: where it sits in the batch (a map key or list
     * position), dtype, shape and every byte. Anything else in the batch (strings, lists of
     * samples) is written as it prints.
     */
    public static List<String> describe(Object data) {
        List<String> out = new ArrayList<>();
        describe("", data, out);
        return out;
    }

    /**
     * A filled batch's rows, one text per sample: each tensor's row (where it sits in the batch,
     * and its bytes), so that batches of other compositions can be compared row by row.
     */
    public static List<String> rows(Object data) {
        List<Tensor> tensors = new ArrayList<>();
        List<String> at = new ArrayList<>();
        collect("", data, tensors, at);
        List<String> out = new ArrayList<>();
        long n = tensors.isEmpty() ? 0 : tensors.get(0).shape().dim(0);
        for (long r = 0; r < n; r++) {
            StringBuilder row = new StringBuilder();
            for (int f = 0; f < tensors.size(); f++) {
                row.append(at.get(f)).append(' ').append(HexFormat.of().formatHex(bytes(tensors.get(f).select(r))))
                        .append('\n');
            }
            out.add(row.toString());
        }
        return out;
    }

    private static void collect(String at, Object data, List<Tensor> tensors, List<String> paths) {
        switch (data) {
            case Tensor t -> {
                tensors.add(t);
                paths.add(at);
            }
            case Map<?, ?> m -> {
                for (Map.Entry<?, ?> e : new TreeMap<>(m).entrySet()) {
                    collect(at + "/" + e.getKey(), e.getValue(), tensors, paths);
                }
            }
            case List<?> l -> {
                for (int i = 0; i < l.size(); i++) {
                    collect(at + "/" + i, l.get(i), tensors, paths);
                }
            }
            default -> throw new IllegalArgumentException("a filled batch holds tensors, not " + data);
        }
    }

    /** A tensor's bytes as they lie in memory. */
    public static byte[] bytes(Tensor t) {
        return t.segment().asSlice(0, t.byteSize()).toArray(ValueLayout.JAVA_BYTE);
    }

    private static void describe(String at, Object data, List<String> out) {
        switch (data) {
            case Tensor t -> out.add(at + " " + t.dtype() + " " + t.shape() + " "
                    + HexFormat.of().formatHex(bytes(t)));
            case Map<?, ?> m -> {
                for (Map.Entry<?, ?> e : new TreeMap<>(m).entrySet()) {
                    describe(at + "/" + e.getKey(), e.getValue(), out);
                }
            }
            case List<?> l -> {
                for (int i = 0; i < l.size(); i++) {
                    describe(at + "/" + i, l.get(i), out);
                }
            }
            case null -> out.add(at + " null");
            default -> out.add(at + " " + new Key(data).toString() + " (" + data.getClass().getSimpleName() + ")");
        }
    }
}
