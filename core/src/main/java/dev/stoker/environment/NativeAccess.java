package dev.stoker.environment;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Whether a module may call native code (the FFM API's restricted methods, JNI), and the flag that
 * allows it. Without the flag the JDK prints a warning on the first call, and a future JDK will
 * refuse the call instead.
 */
public final class NativeAccess {
    private static final String FLAG = "--enable-native-access";

    private NativeAccess() {
    }

    /**
     * Whether the module of {@code type} was given native access: by the command line's
     * {@code --enable-native-access} (also through {@code JDK_JAVA_OPTIONS}), or by the
     * {@code Enable-Native-Access} manifest attribute of the jar run with {@code java -jar}.
     *
     * <p>NOTE: {@link Module#isNativeAccessEnabled()} alone cannot tell: it turns true once the JDK
     * has printed its warning for the module, so it says "enabled" right after the warning.
     */
    public static boolean enabled(Class<?> type) {
        Module module = type.getModule();
        if (!module.isNativeAccessEnabled()) {
            return false;
        }
        String name = module.isNamed() ? module.getName() : "ALL-UNNAMED";
        List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String value = arg.startsWith(FLAG + "=") ? arg.substring(FLAG.length() + 1)
                    : arg.equals(FLAG) && i + 1 < args.size() ? args.get(i + 1) : null;
            if (value != null && Arrays.asList(value.split(",")).contains(name)) {
                return true;
            }
        }
        return !module.isNamed() && mainJarEnablesNativeAccess();
    }

    /** Whether this JVM was started with {@code -jar} on a jar whose manifest enables native access. */
    private static boolean mainJarEnablesNativeAccess() {
        String command = System.getProperty("sun.java.command", "");
        String first = command.split(" ", 2)[0];
        if (!first.endsWith(".jar")) {
            return false;
        }
        try (JarFile jar = new JarFile(first)) {
            Manifest manifest = jar.getManifest();
            return manifest != null
                    && "ALL-UNNAMED".equals(manifest.getMainAttributes().getValue("Enable-Native-Access"));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The flag that gives the module of {@code type} native access: {@code ALL-UNNAMED} on the class
     * path, the module's name on the module path.
     */
    public static String flag(Class<?> type) {
        Module module = type.getModule();
        return "--enable-native-access=" + (module.isNamed() ? module.getName() : "ALL-UNNAMED");
    }

    /**
     * The finding for native access by {@code module}'s classes, {@code type} among them.
     *
     * @param uses what the module calls natively, e.g. "mmap and mlock for batch memory"
     */
    public static Finding finding(String module, Class<?> type, String uses) {
        String feature = "native access (" + uses + ")";
        if (enabled(type)) {
            return new Finding.Ready(module, feature, "enabled");
        }
        return new Finding.Missing(module, feature,
                "the JVM prints a warning on the first native call, and a future JDK will refuse it",
                "start the JVM with " + flag(type));
    }
}
