package dev.stoker.formats.folder;

import java.util.Comparator;

/**
 * Python's string order: by Unicode code point. Java's {@link String#compareTo} compares UTF-16
 * units, which differs for characters outside the Basic Multilingual Plane (an emoji sorts before
 * U+FF01 in Java, after it in Python); torchvision sorts with Python's order.
 */
final class PythonOrder {
    static final Comparator<String> CODE_POINTS = PythonOrder::compare;

    private PythonOrder() {}

    static int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }
}
