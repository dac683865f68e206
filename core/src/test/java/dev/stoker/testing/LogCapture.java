package dev.stoker.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The records a logger writes while this is open, kept off the console: for tests of what Stoker
 * logs (through {@code System.Logger}, which the JDK routes to {@code java.util.logging}).
 *
 * <pre>{@code
 * try (LogCapture log = LogCapture.of(DataLoader.class)) {
 *     run();
 *     assertThat(log.records()).hasSize(3);
 * }
 * }</pre>
 */
public final class LogCapture implements AutoCloseable {
    private final Logger logger;
    private final boolean parents;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            records.add(r);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    private LogCapture(Logger logger) {
        this.logger = logger;
        this.parents = logger.getUseParentHandlers();
        logger.addHandler(handler);
        logger.setUseParentHandlers(false);
    }

    /** Captures the logger named after {@code owner}. */
    public static LogCapture of(Class<?> owner) {
        return new LogCapture(Logger.getLogger(owner.getName()));
    }

    /** What was logged so far, oldest first; the list keeps filling while this is open. */
    public List<LogRecord> records() {
        return records;
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
        logger.setUseParentHandlers(parents);
    }
}
