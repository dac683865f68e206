package dev.stoker.loader.engine;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The {@link StreamMark} of each batch or failure a streaming pass has made and not yet handed
 * out, looked up by identity when the consumer receives it; workers add, the consumer removes.
 */
final class StreamMarks {
    private final Map<Object, StreamMark> marks = new IdentityHashMap<>();
    private final StreamLog log;

    StreamMarks(StreamLog log) {
        this.log = log;
    }

    synchronized void mark(Object item, StreamMark mark) {
        marks.put(item, mark);
    }

    /** {@code replacement} is handed out in place of {@code item} (a batch renumbered for delivery). */
    synchronized void replace(Object item, Object replacement) {
        StreamMark m = marks.remove(item);
        if (m != null) {
            marks.put(replacement, m);
        }
    }

    /** The consumer received {@code item}, a batch ({@code batch}) or a failure: the log moves on to its mark. */
    void handedOut(Object item, boolean batch) {
        StreamMark m;
        synchronized (this) {
            m = marks.remove(item);
        }
        if (m == null) {
            return; // not from a stream: a timeout or an interrupted wait
        }
        log.handedOut(m, batch);
    }
}
