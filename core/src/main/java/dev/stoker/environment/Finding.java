package dev.stoker.environment;

/**
 * What one module of Stoker found about one thing it can use in this JVM or on this machine: it is
 * there ({@link Ready}), or it is not and Stoker goes on without it ({@link Missing}, saying what
 * that costs and how to get it).
 */
public sealed interface Finding permits Finding.Ready, Finding.Missing {
    /** The Stoker module that uses it, e.g. {@code stoker-vision}. */
    String module();

    /** What it is, in a few words, e.g. {@code libjpeg-turbo}. */
    String feature();

    /**
     * There, and used.
     *
     * @param detail what was found, e.g. the library's file name
     */
    record Ready(String module, String feature, String detail) implements Finding {
    }

    /**
     * Not there: Stoker works without it, at the cost that {@code consequence} says.
     *
     * @param consequence what happens without it, e.g. "JPEGs are decoded by ImageIO, about 2.5x slower"
     * @param remedy      what to do to have it, e.g. a JVM flag or a package to install
     */
    record Missing(String module, String feature, String consequence, String remedy) implements Finding {
    }
}
