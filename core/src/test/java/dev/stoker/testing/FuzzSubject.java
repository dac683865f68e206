package dev.stoker.testing;

import java.io.IOException;
import java.nio.file.Path;

/**
 * One reader under {@link CorruptionFuzz}: how a case is made (a fresh, damaged copy of a base
 * fixture) and how it is read (everything, through every accessor). It runs in the case JVM, made
 * there from its class name, so it needs a public no-argument constructor.
 */
public interface FuzzSubject {

    /** A damaged copy and what was done to it (for the log line that names the case). */
    record Case(Path path, String damage) {}

    /** What reading a case came to. */
    enum Outcome {
        /** Everything read (damage confined to values reads as other values). */
        CLEAN,
        /** Refused when opened, with a named format error. */
        REFUSED_OPEN,
        /** Opened; some reads refused with a named format error. */
        REFUSED_READ
    }

    /**
     * Makes case {@code seed} of {@code base}: copies it from the fixtures into {@code work}
     * (replacing the previous case) and damages the copy, as {@code seed} decides.
     */
    Case damage(Path fixtures, String base, Path work, long seed) throws IOException;

    /**
     * Reads the whole case. A format error is checked with {@link FormatErrors#requireNamed} and
     * counts as a refusal; anything else escapes and is reported as a BAD case.
     */
    Outcome readAll(Case c) throws IOException;
}
