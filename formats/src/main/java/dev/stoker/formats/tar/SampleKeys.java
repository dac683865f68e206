package dev.stoker.formats.tar;

/**
 * WebDataset's naming rule: a member {@code dir/abc.seg.jpg} belongs to the sample with key
 * {@code dir/abc} (the path up to the first dot of the file name) as its field {@code seg.jpg}
 * (everything after that dot). A member whose file name has no dot, or starts with one, belongs
 * to no sample and is skipped, as WebDataset skips it.
 */
public final class SampleKeys {
    private SampleKeys() {
    }

    /** The index of the dot that splits {@code name} into key and extension, or -1 when none does. */
    static int splitAt(String name) {
        int base = name.lastIndexOf('/') + 1;
        int dot = name.indexOf('.', base);
        return dot <= base || dot == name.length() - 1 ? -1 : dot;
    }

    /** The sample key of a member name, or null when the name belongs to no sample. */
    public static String key(String name) {
        int dot = splitAt(name);
        return dot < 0 ? null : name.substring(0, dot);
    }

    /**
     * Why {@code key} cannot name a sample whose members read back under it, or null when it can:
     * for writers, which must refuse such a key (or skip its sample) before writing.
     *
     * <pre>{@code
     * String problem = SampleKeys.problem("img.0001");   // "the key's file name ... contains a dot ..."
     * }</pre>
     */
    public static String problem(String key) {
        if (key == null) {
            return "the key is null";
        }
        if (key.isEmpty()) {
            return "the key is empty";
        }
        if (key.indexOf('\0') >= 0) {
            return "the key contains a NUL character, which ends a name in a tar header";
        }
        if (key.endsWith("/")) {
            return "the key ends in '/', which would make its members directories";
        }
        if (!key.equals(key(key + ".x"))) {
            return "the key's file name (after the last '/') contains a dot, where readers would split key from"
                    + " extension; replace the dots (e.g. with '_')";
        }
        return null;
    }

    /** The field name (extension) of a member name, or null when the name belongs to no sample. */
    public static String extension(String name) {
        int dot = splitAt(name);
        return dot < 0 ? null : name.substring(dot + 1);
    }
}
