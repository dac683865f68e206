package dev.stoker.loader;

import java.util.Set;
import java.util.stream.Collectors;

/** The loader's worker threads alive now, for tests that check none is left behind. */
final class WorkerThreads {
    private WorkerThreads() {}

    static Set<Thread> alive() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("stoker-worker") && t.isAlive())
                .collect(Collectors.toSet());
    }
}
