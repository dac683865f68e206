package dev.stoker.loader;

import java.lang.System.Logger.Level;
import java.util.Locale;

/** Where {@link LoaderBuilder#profileEvery(java.time.Duration)} writes each window's verdict. */
final class ProfileLog {
    // By name: the logger the builder's javadoc tells users to configure, without a tie back to the loader.
    private static final System.Logger LOG = System.getLogger("dev.stoker.loader.DataLoader");

    private ProfileLog() {
    }

    /** One line: the window's length and batches, then the verdict; WARNING when data-bound. */
    static void write(LoaderProfile window) {
        Verdict v = window.verdict();
        Level level = v.kind() == Verdict.Kind.DATA_BOUND ? Level.WARNING : Level.INFO;
        LOG.log(level, () -> String.format(Locale.ROOT, "loader, the last %.0f s (%d batches): %s",
                window.activeNanos() / 1e9, window.batches(), v));
    }
}
