package dev.stoker.collate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code Map<Class<?>, Collator>} behind a {@link DefaultCollate}, as PyTorch's
 * {@code collate_fn_map}: a value's exact class first, then the latest-registered class it is
 * assignable to (so a user's {@code register(MyList.class, ...)} wins over the built-in
 * {@code List} entry). Immutable once built; lookups are cached per concrete class, since a
 * loader sees the same few classes millions of times.
 */
final class CollatorRegistry {

    /** A registration: the class the dispatcher checks every value against, and its collator. */
    record Entry(Class<?> type, Collator collator) {}

    private final Map<Class<?>, Entry> exact = new LinkedHashMap<>();
    private final List<Entry> byPriority; // latest registration first
    private final Map<Class<?>, Entry> resolved = new ConcurrentHashMap<>();

    CollatorRegistry(Map<Class<?>, Collator> registrations) {
        List<Entry> entries = new ArrayList<>();
        registrations.forEach((type, collator) -> {
            Entry e = new Entry(type, collator);
            exact.put(type, e);
            entries.addFirst(e);
        });
        this.byPriority = List.copyOf(entries);
    }

    /** The entry for values of {@code type}, or null when no registered class covers it. */
    Entry find(Class<?> type) {
        Entry e = resolved.get(type);
        if (e != null) {
            return e;
        }
        e = exact.get(type);
        if (e == null) {
            for (Entry candidate : byPriority) {
                if (candidate.type().isAssignableFrom(type)) {
                    e = candidate;
                    break;
                }
            }
        }
        if (e != null) {
            resolved.putIfAbsent(type, e);
        }
        return e;
    }
}
