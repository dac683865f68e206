package dev.stoker.collate;

import java.lang.reflect.InaccessibleObjectException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;

/**
 * The component names and accessors of a record class, looked up once per class: reflection on
 * every sample of every batch would cost more than the copy.
 */
final class RecordComponents {
    private static final ClassValue<RecordComponents> CACHE = new ClassValue<>() {
        @Override
        protected RecordComponents computeValue(Class<?> type) {
            return new RecordComponents(type);
        }
    };

    private final Class<?> type;
    private final List<String> names;
    private final Method[] accessors;
    private final String inaccessible; // why the accessors cannot be called, or null

    private RecordComponents(Class<?> type) {
        if (!type.isRecord()) {
            throw new IllegalArgumentException(type.getTypeName() + " is not a record");
        }
        RecordComponent[] components = type.getRecordComponents();
        this.type = type;
        this.names = Arrays.stream(components).map(RecordComponent::getName).toList();
        this.accessors = new Method[components.length];
        String why = null;
        for (int i = 0; i < components.length; i++) {
            accessors[i] = components[i].getAccessor();
            // Records are often private or nested in user code; in the unnamed module (the class
            // path) this always succeeds, in a named module only if the package is opened to us.
            try {
                accessors[i].setAccessible(true);
            } catch (InaccessibleObjectException | SecurityException e) {
                why = e.getMessage();
            }
        }
        this.inaccessible = why;
    }

    static RecordComponents of(Class<?> recordType) {
        return CACHE.get(recordType);
    }

    Class<?> type() {
        return type;
    }

    /** Component names in declaration order. */
    List<String> names() {
        return names;
    }

    int indexOf(String name) {
        return names.indexOf(name);
    }

    /** The value of component {@code i} of {@code record}, boxed when primitive. */
    Object get(Object record, int i, CollateContext ctx) {
        if (inaccessible != null) {
            throw ctx.fail("cannot read the components of record " + type.getTypeName() + " (" + inaccessible
                    + "); open its package to dev.stoker, or register a Collator for it");
        }
        try {
            return accessors[i].invoke(record);
        } catch (IllegalAccessException e) {
            throw ctx.fail("cannot read component '" + names.get(i) + "' of record " + type.getTypeName() + ": " + e);
        } catch (InvocationTargetException e) {
            throw new CollateException("cannot collate " + ctx.path() + ": accessor " + names.get(i) + "() of record "
                    + type.getTypeName() + " threw " + e.getCause(), e.getCause());
        }
    }
}
