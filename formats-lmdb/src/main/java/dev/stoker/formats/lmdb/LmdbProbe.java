package dev.stoker.formats.lmdb;

import dev.stoker.environment.EnvironmentProbe;
import dev.stoker.environment.Finding;
import dev.stoker.environment.NativeAccess;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The LMDB module's part of {@link dev.stoker.environment.Environment}: lmdbjava reaches into
 * {@code java.nio} for its zero-copy buffers, loads liblmdb through JNI (jnr-ffi), and uses
 * {@code sun.misc.Unsafe}; each needs a flag on JDK 25 ({@link LmdbEnvironment#JVM_FLAGS}). A service
 * implementation; not called directly.
 */
public final class LmdbProbe implements EnvironmentProbe {
    private static final String MODULE = "stoker-formats-lmdb";
    private static final String FAILS = "opening an LMDB database fails (lmdbjava cannot reach java.nio's buffers)";

    /** Made by {@link java.util.ServiceLoader}. */
    public LmdbProbe() {
    }

    @Override
    public List<Finding> probe() {
        Module lmdbjava = org.lmdbjava.Env.class.getModule();
        String who = lmdbjava.isNamed() ? lmdbjava.getName() : "ALL-UNNAMED";
        Finding opens = ByteBuffer.class.getModule().isOpen("java.nio", lmdbjava)
                ? new Finding.Ready(MODULE, "java.nio opened to lmdbjava", "yes")
                : new Finding.Missing(MODULE, "java.nio opened to lmdbjava", FAILS, "start the JVM with --add-opens java.base/java.nio=" + who);
        Finding exports = ByteBuffer.class.getModule().isExported("sun.nio.ch", lmdbjava)
                ? new Finding.Ready(MODULE, "sun.nio.ch exported to lmdbjava", "yes")
                : new Finding.Missing(MODULE, "sun.nio.ch exported to lmdbjava", FAILS, "start the JVM with --add-exports java.base/sun.nio.ch=" + who);
        boolean unsafeAllowed = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(a -> a.equals("--sun-misc-unsafe-memory-access=allow"));
        Finding unsafe = unsafeAllowed
                ? new Finding.Ready(MODULE, "sun.misc.Unsafe for jnr-ffi", "allowed")
                : new Finding.Missing(MODULE, "sun.misc.Unsafe for jnr-ffi", "the JVM prints a warning when lmdbjava first runs",
                        "start the JVM with --sun-misc-unsafe-memory-access=allow");
        return List.of(opens, exports, unsafe, NativeAccess.finding(MODULE, jnr.ffi.LibraryLoader.class, "liblmdb through jnr-ffi"));
    }
}
