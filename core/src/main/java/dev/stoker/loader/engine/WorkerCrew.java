package dev.stoker.loader.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The worker threads of a loader: {@code stoker-worker-0} to {@code stoker-worker-(n-1)}. A crew
 * lives for one pass, or for the loader's life with persistent workers.
 *
 * <p>Stopping is bounded: each thread is interrupted, then waited for at most the grace period.
 * A thread still running after that (blocked in a call that ignores interrupts) is reported in the
 * log and left behind; it is a daemon thread, and whatever batch it finishes later is closed at
 * once, its memory going back to the pool.
 */
final class WorkerCrew {

    private final List<Worker> workers;
    private final LiveSettings live;
    private boolean stopped;

    WorkerCrew(int count) {
        this(count, LiveSettings.fixed(Math.max(1, count), 1));
    }

    /** A crew of {@code live.lanes()} threads under those settings. */
    WorkerCrew(LiveSettings live) {
        this(live.lanes(), live);
    }

    private WorkerCrew(int count, LiveSettings live) {
        this.live = live;
        List<Worker> list = new ArrayList<>(count);
        for (int w = 0; w < count; w++) {
            list.add(new Worker(w, "stoker-worker-" + w));
        }
        this.workers = List.copyOf(list);
        workers.forEach(Worker::start);
    }

    /** How many of the crew may make a batch at once, and how far ahead. */
    LiveSettings live() {
        return live;
    }

    int size() {
        return workers.size();
    }

    Worker worker(int id) {
        return workers.get(id);
    }

    List<Worker> workers() {
        return workers;
    }

    void submit(Worker.Job job) {
        workers.forEach(w -> w.submit(job));
    }

    void interruptAll() {
        workers.forEach(Worker::interrupt);
    }

    /**
     * Ends every thread, waiting at most {@code grace} in all; idempotent.
     *
     * @return the workers still running after the grace period (empty when all ended)
     */
    synchronized List<Worker> stop(Duration grace) {
        if (!stopped) {
            stopped = true;
            workers.forEach(Worker::stop);
        }
        long deadline = System.nanoTime() + grace.toNanos();
        List<Worker> stuck = new ArrayList<>();
        boolean interrupted = false;
        for (Worker w : workers) {
            long left = deadline - System.nanoTime();
            try {
                // past the deadline, a worker that already ended is not left behind: only a live one
                if (left <= 0 ? w.thread().isAlive() : !w.thread().join(Duration.ofNanos(left))) {
                    stuck.add(w);
                }
            } catch (InterruptedException e) {
                interrupted = true; // finish the bounded wait for the others, then restore the flag
                if (w.thread().isAlive()) {
                    stuck.add(w);
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (!stuck.isEmpty()) {
            log().log(System.Logger.Level.WARNING, () -> "stopping the loader's workers: " + describe(stuck)
                    + " still running after " + grace.toMillis() + " ms (blocked in a call that ignores interrupts?);"
                    + " left behind as daemon threads");
        }
        return stuck;
    }

    static String describe(List<Worker> stuck) {
        StringBuilder s = new StringBuilder();
        long now = System.nanoTime();
        for (Worker w : stuck) {
            if (!s.isEmpty()) {
                s.append(", ");
            }
            WorkerActivity a = w.activity();
            s.append(w.name()).append(a == null ? "" : " (on " + a.describe(now) + ")");
        }
        return s.toString();
    }

    /**
     * The logger, looked up when there is something to say: a static logger field started the
     * JDK's logging (about 10 ms of a new JVM) when this class was loaded, on a first loader's path.
     */
    private static System.Logger log() {
        return System.getLogger(WorkerCrew.class.getName());
    }
}
