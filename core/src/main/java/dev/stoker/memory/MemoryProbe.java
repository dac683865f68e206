package dev.stoker.memory;

import dev.stoker.environment.EnvironmentProbe;
import dev.stoker.environment.Finding;
import dev.stoker.environment.NativeAccess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Core's part of {@link dev.stoker.environment.Environment}: native access for the pool's memory
 * calls, and the kernel's transparent huge pages that make fresh batch memory fast
 * ({@link AnonymousMemory}). A service implementation; not called directly.
 */
public final class MemoryProbe implements EnvironmentProbe {
    private static final Path THP = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");

    /** Made by {@link java.util.ServiceLoader}. */
    public MemoryProbe() {
    }

    @Override
    public List<Finding> probe() {
        List<Finding> found = new ArrayList<>();
        found.add(NativeAccess.finding("stoker-core", MemoryProbe.class,
                "mmap for huge-page batch memory, mlock for pinMemory without CUDA"));
        if (System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")) {
            found.add(hugePages(THP));
        }
        return found;
    }

    /** Reads the kernel's setting: {@code always [madvise] never}, the one in brackets in force. */
    static Finding hugePages(Path setting) {
        String feature = "transparent huge pages";
        String mode;
        try {
            String text = Files.readString(setting);
            int open = text.indexOf('[');
            int close = text.indexOf(']', open + 1);
            mode = open >= 0 && close > open ? text.substring(open + 1, close) : text.strip();
        } catch (IOException e) {
            mode = "unknown (" + setting + " could not be read)";
        }
        if (Boolean.getBoolean("stoker.hugepages.disable")) {
            return new Finding.Missing("stoker-core", feature, "turned off by -Dstoker.hugepages.disable=true: "
                    + "fresh batch memory is faulted in 4 KiB pages", "drop -Dstoker.hugepages.disable");
        }
        if (mode.equals("always") || mode.equals("madvise")) {
            return new Finding.Ready("stoker-core", feature, mode + " (pool blocks of 2 MiB and more ask for them)");
        }
        return new Finding.Missing("stoker-core", feature, "the kernel's setting is '" + mode
                        + "': fresh batch memory is faulted in 4 KiB pages, which makes a new loader's first batches slow",
                "as root: echo madvise > " + setting);
    }
}
