package dev.stoker.collate;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A record becomes a map from component name to the collated component, in declaration order,
 * as PyTorch collates a dataclass-like mapping: {@code Sample(Tensor image, long label)} gives
 * {@code {image: (n, ...), label: (n) i64}}.
 */
final class RecordCollator implements Collator {
    static final RecordCollator INSTANCE = new RecordCollator();

    private RecordCollator() {}

    @Override
    public Object collate(List<?> values, CollateContext ctx) {
        Class<?> type = values.getFirst().getClass();
        for (int i = 1; i < values.size(); i++) {
            Class<?> other = values.get(i).getClass();
            if (other != type) {
                throw ctx.fail("sample 0 is a " + type.getTypeName() + " but sample " + i + " is a "
                        + other.getTypeName());
            }
        }
        RecordComponents components = RecordComponents.of(type);
        List<String> names = components.names();
        Map<String, Object> out = new LinkedHashMap<>();
        Object[] column = new Object[values.size()];
        for (int c = 0; c < names.size(); c++) {
            for (int i = 0; i < column.length; i++) {
                column[i] = components.get(values.get(i), c, ctx);
            }
            out.put(names.get(c), ctx.collateField(names.get(c), Arrays.asList(column.clone())));
        }
        return out;
    }
}
