package dev.stoker.formats.folder;

import java.nio.file.Path;

/**
 * Scans the image folder named by its argument and prints the classes, or the error's class and
 * message: run by {@link AsciiLocaleTest} in a JVM started under {@code LANG=C}.
 */
public final class AsciiLocaleProbe {
    private AsciiLocaleProbe() {
    }

    public static void main(String[] args) {
        System.out.println("encoding " + System.getProperty("sun.jnu.encoding"));
        try {
            System.out.println("classes " + ImageFolder.scan(Path.of(args[0])).classes());
        } catch (Exception e) {
            System.out.println("error " + e.getClass().getName() + ": " + e.getMessage());
        }
    }
}
