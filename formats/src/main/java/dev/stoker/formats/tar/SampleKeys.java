package dev.stoker.formats.tar;

import java.util.Locale;

/**
 * WebDataset's naming rule: a member {@code dir/abc.seg.jpg} belongs to the sample with key
 * {@code dir/abc} (the path up to the first dot of the file name) as its field {@code seg.jpg}
 * (everything after that dot). A member whose file name has no dot, or starts with one, belongs
 * to no sample and is skipped, as WebDataset skips it.
 *
 * <p>The field is the extension lower-cased, as WebDataset's {@code group_by_keys} does
 * ({@code lcase=True}): {@code K4.JPG} is field {@code jpg} of sample {@code K4}, so
 * {@code to_tuple("jpg", ...)} habits carry over; the key keeps its case. Two members of one
 * sample whose extensions differ only in case ({@code K4.JPG}, {@code K4.jpg}) are one field
 * twice, an error in every reader, as in WebDataset.
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

    /**
     * The extension of a member name as written in the shard (its case kept), or null when the name
     * belongs to no sample. Readers name the sample's fields by {@link #field}.
     */
    public static String extension(String name) {
        int dot = splitAt(name);
        return dot < 0 ? null : name.substring(dot + 1);
    }

    /**
     * The field a member gives its sample: its extension lower-cased (WebDataset's
     * {@code suffix.lower()}), or null when the name belongs to no sample.
     */
    public static String field(String name) {
        String ext = extension(name);
        return ext == null ? null : fieldOf(ext);
    }

    /**
     * The field name of an extension: lower-cased by Unicode's rules in no locale's way (as
     * Python's {@code str.lower()}; never Turkish dotless i). Returns {@code extension} itself
     * when it is lower case already, so the common case allocates nothing.
     */
    public static String fieldOf(String extension) {
        return extension.toLowerCase(Locale.ROOT);
    }
}
