package dev.stoker.loader;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Finds how many workers a loader needs: the fewest that keep a training step of a given length
 * fed (the loop waits less than {@link LoaderProfile#DATA_BOUND_WAIT_SHARE} of its time), or,
 * with no step, the fewest that load about as fast as any count does. PyTorch users find
 * {@code num_workers} by hand; this tries counts 0, 1, 2, 4, ... against a {@link StepLoop},
 * stops where more workers stop helping (the loop is fed, the speed levels off, or every core
 * is busy), then narrows down between the last count that fell short and the first that did not.
 *
 * <pre>{@code
 * TuningResult r = WorkerTuner.of(n -> DataLoader.builder(dataset).batchSize(64).shuffle(true)
 *                 .numWorkers(n).build())
 *         .step(Duration.ofMillis(80))          // the model's step, measured beforehand
 *         .run(trial -> System.out.println(trial));
 * System.out.println(r.numWorkers() + ": " + r.reason());
 * }</pre>
 *
 * <p>Each trial builds a loader, takes {@link #batchesPerTrial} batches and closes it; trials are
 * short, so on a busy machine a count near the line may land on either side of it.
 */
public final class WorkerTuner {
    /** Counts whose speeds differ by less than this share are taken as equally fast. */
    public static final double SAME_SPEED = 0.05;
    /** The fewest batches a trial may take: the first of them is start-up and not counted. */
    public static final int MIN_BATCHES_PER_TRIAL = LoaderProfile.MIN_BATCHES_JUDGED + 2;

    private final IntFunction<? extends DataLoader<?>> loaders;
    private Duration step = Duration.ZERO;
    private int batchesPerTrial = 40;
    private int maxWorkers = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());

    private WorkerTuner(IntFunction<? extends DataLoader<?>> loaders) {
        this.loaders = Objects.requireNonNull(loaders, "loaders");
    }

    /**
     * A tuner over the loaders {@code loaderWithWorkers} builds, one per worker count asked for;
     * everything else about them should stay the same.
     */
    public static WorkerTuner of(IntFunction<? extends DataLoader<?>> loaderWithWorkers) {
        return new WorkerTuner(loaderWithWorkers);
    }

    /** The training step to keep fed; zero (the default) tunes for speed alone. */
    public WorkerTuner step(Duration step) {
        if (step.isNegative()) {
            throw new IllegalArgumentException("a step cannot be negative: " + step);
        }
        this.step = step;
        return this;
    }

    /** Batches each trial takes (default 40; at least {@value #MIN_BATCHES_PER_TRIAL}). */
    public WorkerTuner batchesPerTrial(int batches) {
        if (batches < MIN_BATCHES_PER_TRIAL) {
            throw new IllegalArgumentException("a trial needs at least " + MIN_BATCHES_PER_TRIAL + " batches to judge"
                    + " by, not " + batches);
        }
        this.batchesPerTrial = batches;
        return this;
    }

    /** The most workers to try (default: twice the cores, at least 4: waiting threads cost little). */
    public WorkerTuner maxWorkers(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("maxWorkers must be 0 or more, not " + max);
        }
        this.maxWorkers = max;
        return this;
    }

    /** Runs the trials; see the class comment. */
    public TuningResult run() {
        return run(t -> { });
    }

    /** Runs the trials, handing each to {@code onTrial} as it finishes. */
    public TuningResult run(Consumer<TuningTrial> onTrial) {
        TreeMap<Integer, TuningTrial> tried = new TreeMap<>();
        List<TuningTrial> order = new ArrayList<>();
        Consumer<TuningTrial> keep = t -> {
            tried.put(t.numWorkers(), t);
            order.add(t);
            onTrial.accept(t);
        };
        boolean forStep = !step.isZero();
        Integer enough = null; // the fewest workers known to keep up
        Integer shortOf = null; // the most workers known to fall short
        TuningTrial previous = null;
        for (int n = 0; n <= maxWorkers; n = nextCount(n)) {
            TuningTrial t = trial(n);
            keep.accept(t);
            if (forStep && t.keepsUp()) {
                enough = n;
                break;
            }
            shortOf = n;
            // more workers were no faster: the limit is elsewhere (not judged from 0 to 1 worker, which
            // only moves loading off the loop's thread and may gain little where the next count gains much)
            if (previous != null && previous.numWorkers() > 0
                    && t.batchesPerSecond() < previous.batchesPerSecond() * (1 + SAME_SPEED)) {
                break;
            }
            LoaderProfile p = t.profile();
            if (n >= p.cores() && p.coresUsed() >= 0.9 * p.cores()) {
                break; // every core is busy: more threads only share them
            }
            previous = t;
        }
        if (forStep && enough != null) {
            int lo = shortOf == null ? -1 : shortOf;
            int hi = enough;
            while (hi - lo > 1) { // the line lies between a count that fell short and one that kept up
                int mid = (lo + hi) >>> 1;
                TuningTrial t = trial(mid);
                keep.accept(t);
                if (t.keepsUp()) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            TuningTrial chosen = tried.get(hi);
            return new TuningResult(order, chosen, String.format(Locale.ROOT, "the fewest workers that keep a %s"
                    + " step fed: the loop waited %.1f%% of its time", millis(step), 100 * chosen.profile().waitShare()));
        }
        TuningTrial fastest = order.stream().max(Comparator.comparingDouble(TuningTrial::batchesPerSecond)).orElseThrow();
        TuningTrial chosen = order.stream()
                .filter(t -> t.batchesPerSecond() >= fastest.batchesPerSecond() * (1 - SAME_SPEED))
                .min(Comparator.comparingInt(TuningTrial::numWorkers)).orElseThrow();
        if (forStep) {
            // why the count chosen falls short: its own verdict (not that of the most tried, which is not the advice)
            TuningTrial most = tried.lastEntry().getValue();
            return new TuningResult(order, chosen, String.format(Locale.ROOT, "no worker count tried (up to %d) keeps"
                    + " a %s step fed, which takes %.1f batches/s; the fewest within %.0f%% of the fastest load"
                    + " %.1f batches/s. With %d: %s", most.numWorkers(), millis(step), 1e9 / step.toNanos(),
                    100 * SAME_SPEED, chosen.batchesPerSecond(), chosen.numWorkers(), chosen.profile().verdict().reason()));
        }
        return new TuningResult(order, chosen, String.format(Locale.ROOT, "the fewest workers within %.0f%% of the"
                + " fastest count tried (%.1f batches/s with %d)", 100 * SAME_SPEED, fastest.batchesPerSecond(),
                fastest.numWorkers()));
    }

    /** Builds a loader with {@code n} workers and runs the step loop over it. */
    private TuningTrial trial(int n) {
        try (DataLoader<?> loader = loaders.apply(n)) {
            if (loader.numWorkers() != n) {
                throw new IllegalArgumentException("asked for a loader with " + n + " workers, the tuner's function"
                        + " built one with " + loader.numWorkers() + ": pass n to numWorkers(n)");
            }
            long[] first = {-1};
            long taken = StepLoop.run(loader, batchesPerTrial, step, b -> {
                if (first[0] < 0) {
                    first[0] = System.nanoTime();
                }
            });
            long end = System.nanoTime();
            if (taken < MIN_BATCHES_PER_TRIAL) {
                throw new IllegalArgumentException("the loader gave only " + taken + " batches; a trial needs at least "
                        + MIN_BATCHES_PER_TRIAL);
            }
            double bps = (taken - 1) / ((end - first[0]) / 1e9);
            return new TuningTrial(n, bps, loader.profile());
        }
    }

    /** The count tried after {@code n}: 0, 1, 2, 4, 8, ..., then {@link #maxWorkers} itself, then past it. */
    private int nextCount(int n) {
        return n == 0 ? 1 : n == maxWorkers ? maxWorkers + 1 : Math.min(2 * n, maxWorkers);
    }

    private static String millis(Duration d) {
        double ms = d.toNanos() / 1e6;
        return (ms == Math.rint(ms) ? Long.toString((long) ms) : Double.toString(ms)) + " ms";
    }

    @Override
    public String toString() {
        return "WorkerTuner(step " + millis(step) + ", " + batchesPerTrial + " batches a trial, up to " + maxWorkers
                + " workers)";
    }
}
