package dev.stoker.loader.engine;

import dev.stoker.data.WorkerContext;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * One worker thread of a {@link WorkerCrew}: a platform thread that runs the jobs it is given, one
 * at a time (one job per pass), until it is stopped. It keeps what must survive from one pass to
 * the next with persistent workers: whether the loader's {@code workerInit} hook has run in it.
 */
final class Worker {
    /** One pass's work, as run by each worker. */
    interface Job {
        void run(Worker worker);
    }

    private static final Job STOP = w -> {};

    private final int id;
    private final Thread thread;
    private final LinkedBlockingQueue<Job> mailbox = new LinkedBlockingQueue<>();
    private volatile boolean stopping;
    private volatile WorkerActivity activity;
    private boolean initialized; // read and written by the worker's own thread only

    Worker(int id, String name) {
        this.id = id;
        // Daemon: a worker stuck in a call that ignores interrupts must not keep the JVM alive.
        this.thread = Thread.ofPlatform().name(name).daemon(true).unstarted(this::loop);
    }

    void start() {
        thread.start();
    }

    int id() {
        return id;
    }

    String name() {
        return thread.getName();
    }

    Thread thread() {
        return thread;
    }

    void submit(Job job) {
        mailbox.add(job);
    }

    /** Interrupts whatever the worker is doing (a sleep, a blocking read, a wait for room). */
    void interrupt() {
        thread.interrupt();
    }

    /** Asks the thread to end after its current job; it is interrupted too. */
    void stop() {
        stopping = true;
        mailbox.add(STOP);
        thread.interrupt();
    }

    /** Runs {@code hook} with {@code context} unless it already ran in this worker. Worker thread only. */
    void initOnce(Consumer<WorkerContext> hook, WorkerContext context) {
        if (!initialized) {
            if (hook != null) {
                hook.accept(context);
            }
            initialized = true;
        }
    }

    WorkerActivity activity() {
        return activity;
    }

    void working(long batch, long[] indices) {
        activity = WorkerActivity.of(batch, indices);
    }

    void idle() {
        activity = null;
    }

    private void loop() {
        while (!stopping) {
            Job job;
            try {
                job = mailbox.take();
            } catch (InterruptedException e) {
                continue; // an interrupt meant for a job that is over: look at stopping again
            }
            if (job == STOP) {
                break;
            }
            // An interrupt meant for the previous pass may still be pending: a wait that is both
            // signalled (this job) and interrupted returns normally with the flag set. A pass that
            // is closing now has closed its board before interrupting, and the job checks that.
            Thread.interrupted();
            try {
                job.run(this);
            } finally {
                activity = null;
                Thread.interrupted(); // an interrupt that ended this job must not reach the next one
            }
        }
    }
}
