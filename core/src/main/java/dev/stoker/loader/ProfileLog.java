package dev.stoker.loader;

import java.lang.System.Logger.Level;
import java.util.Locale;

/** Where {@link LoaderBuilder#profileEvery(java.time.Duration)} writes each window's verdict. */
final class ProfileLog {
    private static final System.Logger LOG = System.getLogger(DataLoader.class.getName());

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
