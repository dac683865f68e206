package dev.stoker.environment;

/**
 * Whether a module may call native code (the FFM API's restricted methods, JNI), and the flag that
 * allows it. Without the flag the JDK prints a warning on the first call, and a future JDK will
 * refuse the call instead.
 */
public final class NativeAccess {
    private NativeAccess() {
    }

    /** Whether the module of {@code type} has native access. */
    public static boolean enabled(Class<?> type) {
        return type.getModule().isNativeAccessEnabled();
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
