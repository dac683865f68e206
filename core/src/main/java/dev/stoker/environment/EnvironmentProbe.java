package dev.stoker.environment;

import java.util.List;

/**
 * A module's look at what it can use here: JVM flags, native libraries, kernel settings. Each
 * Stoker module that uses one provides a probe as a {@link java.util.ServiceLoader} service;
 * {@link Environment#current()} asks every probe on the class or module path.
 *
 * <p>A probe must not itself cause what it warns about: it checks that native access is enabled
 * before it looks a native library up, since the lookup without it prints the JVM's warning.
 */
public interface EnvironmentProbe {
    /** What this module found, one finding per feature. */
    List<Finding> probe();
}
