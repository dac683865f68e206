package dev.stoker.loader;

import dev.stoker.metrics.Stage;
import dev.stoker.metrics.StageTimes;
import dev.stoker.metrics.StageTotal;
import dev.stoker.metrics.Usage;
import java.util.Locale;

/**
 * Where a loader's time went, stage by stage, and what that says: {@link DataLoader#profile()}.
 * Worker stages ({@link Stage#FETCH}, {@link Stage#COLLATE} and the dataset's parts of them) are
 * summed over the threads that ran them; the consumer's ({@link Stage#WAIT}, {@link Stage#STEP},
 * {@link Stage#FIRST_BATCH}) are the training loop's own time.
 *
 * <pre>{@code
 * LoaderProfile p = loader.profile();
 * System.out.println(p.report());          // a table of the stages and the verdict
 * if (p.waitShare() > 0.05) ...            // the loop waited for more than 5% of its time
 * }</pre>
 *
 * @param times         every stage's total
 * @param numWorkers    the loader's worker threads (0: loading on the consumer's thread)
 * @param prefetchFactor batches in flight per worker
 * @param ioConcurrency the I/O mode's fetches at once, 0 when off
 * @param inOrder       whether batches are delivered in sampler order
 * @param passes        what the loader's passes cost, summed: their running time, the CPU time the
 *                      whole process used meanwhile (every thread, the training loop's too) and
 *                      the whole machine's processor ticks
 * @param cores         processors the JVM may use
 */
public record LoaderProfile(StageTimes times, int numWorkers, int prefetchFactor, int ioConcurrency, boolean inOrder,
                            Usage passes, int cores) {
    /** Below this share of its time waiting for data, a loop is compute-bound. */
    public static final double DATA_BOUND_WAIT_SHARE = 0.05;
    /** Batches the consumer must have stepped through before a verdict is given. */
    public static final int MIN_BATCHES_JUDGED = 3;

    /**
     * What happened since {@code earlier}, a profile of the same loader taken before this one: a
     * window, with its own verdict. {@link DataLoader#profile()} sums everything since the loader
     * was built; a long job asks for windows ({@link LoaderBuilder#profileEvery}) to see when it
     * turned data-bound.
     *
     * <pre>{@code
     * LoaderProfile before = loader.profile();
     * ... an hour of training ...
     * System.out.println(loader.profile().since(before).verdict());
     * }</pre>
     */
    public LoaderProfile since(LoaderProfile earlier) {
        return new LoaderProfile(times.minus(earlier.times), numWorkers, prefetchFactor, ioConcurrency, inOrder,
                passes.minus(earlier.passes), cores);
    }

    /** How long the loader's passes have run, summed. */
    public long activeNanos() {
        return passes.wallNanos();
    }

    /** The CPU time the whole process used while they ran, or -1 where the runtime does not say. */
    public long cpuNanos() {
        return passes.cpuNanos();
    }

    /** The share of the whole machine's processor time that was busy, every process together; -1 when unknown. */
    public double machineBusyShare() {
        return passes.machine().busyShare();
    }

    /** Time loading batches, fetch and collate, summed over the threads that did it. */
    public long loadingNanos() {
        return times.nanos(Stage.FETCH) + times.nanos(Stage.COLLATE);
    }

    /** Batches made. */
    public long batches() {
        return times.get(Stage.FETCH).count();
    }

    /**
     * The share of the training loop's steady-state time (waits plus steps, the first batch of
     * each pass left out) spent waiting for a batch; 0 before there is any.
     */
    public double waitShare() {
        long wait = times.nanos(Stage.WAIT);
        long loop = wait + times.nanos(Stage.STEP);
        return loop == 0 ? 0 : (double) wait / loop;
    }

    /**
     * The share of the workers' time spent loading: loading time over {@code numWorkers} times
     * the running time (over the running time alone with no workers).
     */
    public double workerBusyShare() {
        double capacity = (double) Math.max(1, numWorkers) * activeNanos();
        return capacity <= 0 ? 0 : Math.min(1, loadingNanos() / capacity);
    }

    /** Cores the process kept busy on average while the loader ran: CPU time over running time; -1 when not known. */
    public double coresUsed() {
        return cpuNanos() < 0 || activeNanos() <= 0 ? -1 : (double) cpuNanos() / activeNanos();
    }

    /** Data-bound or compute-bound, and why; see {@link Verdict}. */
    public Verdict verdict() {
        long steps = times.get(Stage.STEP).count();
        if (steps < MIN_BATCHES_JUDGED) {
            return new Verdict(Verdict.Kind.UNKNOWN, "the loop has taken " + steps + " batches past the first of its"
                    + " pass; a verdict needs " + MIN_BATCHES_JUDGED + " or more");
        }
        double wait = waitShare();
        double busy = workerBusyShare();
        double stepMs = times.get(Stage.STEP).meanMillis();
        double loadMs = batches() == 0 ? 0 : loadingNanos() / 1e6 / batches();
        if (wait < DATA_BOUND_WAIT_SHARE) {
            String s = String.format(Locale.ROOT, "the loop waited for data %.1f%% of its time; batches are ready"
                    + " when it asks", 100 * wait);
            if (numWorkers > 1 && busy < 0.5) {
                int enough = Math.max(1, (int) Math.ceil(numWorkers * busy / 0.8));
                s += String.format(Locale.ROOT, ". The %d workers were busy %.0f%% of the time: %d would do",
                        numWorkers, 100 * busy, enough);
            }
            return new Verdict(Verdict.Kind.COMPUTE_BOUND, s + ".");
        }
        String waited = String.format(Locale.ROOT, "the loop waited for data %.0f%% of its time (%.1f ms a batch,"
                + " against a step of %.1f ms)", 100 * wait, times.get(Stage.WAIT).meanMillis(), stepMs);
        if (numWorkers == 0) {
            int needed = stepMs <= 0 ? 1 : (int) Math.ceil(loadMs / stepMs);
            return new Verdict(Verdict.Kind.DATA_BOUND, waited + ". Loading runs on the training thread"
                    + " (numWorkers 0), so the step waits for all of it: "
                    + String.format(Locale.ROOT, "%.1f ms a batch. With workers it overlaps the step; about %d would"
                    + " keep up.", loadMs, Math.max(1, needed)));
        }
        long memory = times.nanos(Stage.MEMORY);
        if (memory > 0.1 * loadingNanos()) {
            return new Verdict(Verdict.Kind.DATA_BOUND, waited + String.format(Locale.ROOT, ". The workers spent"
                    + " %.0f%% of their loading time waiting for pool memory: the pool's budget holds fewer than"
                    + " prefetchFactor x numWorkers batches, or the loop keeps batches open too long. Raise the"
                    + " budget, or close each batch when its step is done.", 100.0 * memory / loadingNanos()));
        }
        double used = coresUsed();
        int needed = stepMs <= 0 ? numWorkers + 1 : Math.max(numWorkers + 1, (int) Math.ceil(loadMs / stepMs));
        if (busy > 0.8 && used >= 0 && used < 0.5 * Math.min(numWorkers, cores) && machineBusyShare() >= 0.85) {
            // busy by the clock, short of CPU, on a full machine: other processes hold the cores
            return new Verdict(Verdict.Kind.DATA_BOUND, waited + String.format(Locale.ROOT, ". %s"
                    + " busy %.0f%% of the time, but the process got only %.1f of %d cores while the machine's"
                    + " cores were %.0f%% busy: other processes hold them (other ranks' loaders, a build). More"
                    + " workers would only share the same cores; fewer processes on this machine, or more cores,"
                    + " would help.", theWorkersAre(), 100 * busy, used, cores, 100 * machineBusyShare()));
        }
        if (busy > 0.8 && used >= 0 && used < 0.5 * Math.min(numWorkers, cores)) {
            // busy by the clock, idle by the CPU: the workers wait (storage, network, a sleep)
            return new Verdict(Verdict.Kind.DATA_BOUND, waited + String.format(Locale.ROOT, ". %s"
                    + " busy %.0f%% of the time, but the process used only %.1f of %d cores: they wait (on storage,"
                    + " the network, a sleep) rather than compute; %s. Waiting threads cost little: more workers"
                    + " (about %d would keep up) or the I/O mode (ioConcurrency) that fetches a batch's samples at"
                    + " once would help.", theWorkersAre(), 100 * busy, used, cores, largestPart(), needed));
        }
        if (busy > 0.8) {
            String s = waited + String.format(Locale.ROOT, ". %s busy %.0f%% of the time; %s",
                    theWorkersAre(), 100 * busy, largestPart());
            if (numWorkers < cores) {
                s += String.format(Locale.ROOT, ". More workers would help (this machine has %d cores; about %d"
                        + " would keep up).", cores, Math.min(cores, needed));
            } else {
                s += ". Every core is in use already: cheaper work per sample" + (times.get(Stage.COLLATE).count() > 0
                        ? " (the fill path, which writes samples into the batch and skips collate)" : "")
                        + " or more machines would help.";
            }
            return new Verdict(Verdict.Kind.DATA_BOUND, s);
        }
        return new Verdict(Verdict.Kind.DATA_BOUND, waited + String.format(Locale.ROOT, ". Yet the workers are"
                + " busy only %.0f%% of the time: batches come unevenly, or the workers wait on something the"
                + " loader does not time (the stream's source, a lock). A deeper prefetch (prefetchFactor is %d)"
                + " evens it out%s.", 100 * busy, prefetchFactor,
                inOrder ? ", and inOrder(false) lets a fast batch pass a slow one" : ""));
    }

    /** {@code "The 4 workers are"}, or {@code "The worker is"}. */
    private String theWorkersAre() {
        return numWorkers == 1 ? "The worker is" : "The " + numWorkers + " workers are";
    }

    /** {@code "decode takes the most: 61% of loading"}. */
    private String largestPart() {
        long load = loadingNanos();
        if (load == 0) {
            return "nothing was timed inside loading";
        }
        long read = times.nanos(Stage.READ);
        long decode = times.nanos(Stage.DECODE);
        long transform = times.nanos(Stage.TRANSFORM);
        long rest = Math.max(0, times.nanos(Stage.FETCH) - read - decode - transform);
        long collate = times.nanos(Stage.COLLATE);
        String name = "fetch";
        long most = rest;
        if (read > most) { name = "read"; most = read; }
        if (decode > most) { name = "decode"; most = decode; }
        if (transform > most) { name = "transform"; most = transform; }
        if (collate > most) { name = "collate"; most = collate; }
        if (name.equals("fetch") && read + decode + transform > 0) {
            name = "the rest of fetch";
        }
        return String.format(Locale.ROOT, "%s takes the most: %.0f%% of loading", name, 100.0 * most / load);
    }

    /**
     * A table of every stage (total seconds, count, mean milliseconds, share) and the verdict, for
     * a person.
     */
    public String report() {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%-15s %10s %9s %10s  %s%n", "stage", "total s", "count", "mean ms",
                "share"));
        long load = loadingNanos();
        long loop = times.nanos(Stage.WAIT) + times.nanos(Stage.STEP);
        for (Stage s : new Stage[] {Stage.FETCH, Stage.READ, Stage.DECODE, Stage.TRANSFORM, Stage.MEMORY,
                Stage.COLLATE}) {
            StageTotal t = times.get(s);
            if (t.count() == 0 && s != Stage.FETCH) { // not timed: a dataset that does not say, or the fill path
                continue;
            }
            b.append(row((s.isPart() ? "  " : "") + s.label(), t, share(t.nanos(), load, "of loading")));
        }
        if (times.get(Stage.COPY).count() > 0) { // only where something copies the batches, on the loader's clock
            b.append(row(Stage.COPY.label(), times.get(Stage.COPY), ""));
        }
        b.append(row(Stage.FIRST_BATCH.label(), times.get(Stage.FIRST_BATCH), ""));
        b.append(row(Stage.WAIT.label(), times.get(Stage.WAIT), share(times.nanos(Stage.WAIT), loop, "of the loop")));
        b.append(row(Stage.STEP.label(), times.get(Stage.STEP), share(times.nanos(Stage.STEP), loop, "of the loop")));
        b.append(String.format(Locale.ROOT, "workers: %d, busy %.0f%% of %.2f s; prefetchFactor %d%s; %s%d cores%s%n",
                numWorkers, 100 * workerBusyShare(), activeNanos() / 1e9, prefetchFactor,
                ioConcurrency > 0 ? ", ioConcurrency " + ioConcurrency : "",
                coresUsed() >= 0 ? String.format(Locale.ROOT, "CPU %.1f of ", coresUsed()) : "", cores,
                machineBusyShare() >= 0 ? String.format(Locale.ROOT, " (the machine %.0f%% busy)", 100 * machineBusyShare())
                        : ""));
        b.append("verdict: ").append(verdict()).append(System.lineSeparator());
        return b.toString();
    }

    private static String row(String name, StageTotal t, String share) {
        return String.format(Locale.ROOT, "%-15s %10.3f %9d %10.3f  %s%n", name, t.seconds(), t.count(),
                t.meanMillis(), share);
    }

    private static String share(long part, long whole, String of) {
        return whole == 0 ? "" : String.format(Locale.ROOT, "%5.1f%% %s", 100.0 * part / whole, of);
    }
}
