package dev.stoker.data;

import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * The worker a piece of code runs for: its {@link WorkerContext} and a random generator made from
 * a seed ({@code new SplittableRandom(seed)}), bound for the duration of a call (a
 * {@link ScopedValue}, so nothing is left behind in the thread when the call returns). The loader binds them around every fetch; a dataset reads them through
 * {@link WorkerContext#current()} and {@link WorkerContext#currentRandom()}.
 *
 * <pre>{@code
 * WorkerContext ctx = new WorkerContext(0, 1, 0, 1, 0, 42);
 * double x = WorkerScope.call(ctx, ctx.randomSeed(), () -> WorkerContext.currentRandom().nextDouble());
 * }</pre>
 *
 * <p>NOTE: the generator is used by one thread at a time; bind a scope of its own to each thread
 * that may draw at once.
 */
public final class WorkerScope {
    private static final ScopedValue<WorkerScope> CURRENT = ScopedValue.newInstance();

    private final WorkerContext context;
    private final long seed;
    private final Runnable onDraw; // null: nobody asked to know
    private RandomGenerator random; // made at the first draw: one thread at a time, so no lock

    private WorkerScope(WorkerContext context, long seed, Runnable onDraw) {
        this.context = Objects.requireNonNull(context, "context");
        this.seed = seed;
        this.onDraw = onDraw;
    }

    /** Runs {@code action} with {@code context} and a generator made from {@code seed} as the current worker's. */
    public static <R> R call(WorkerContext context, long seed, Supplier<R> action) {
        return ScopedValue.where(CURRENT, new WorkerScope(context, seed, null)).call(action::get);
    }

    /**
     * Runs {@code action} as {@link #call(WorkerContext, long, Supplier)} does, and runs
     * {@code onDraw} once, the first time the action asks for the generator
     * ({@link WorkerContext#currentRandom()}; reading the seed is no draw). The loader uses it to
     * learn whether the samples of a batch can be made on several threads without changing their
     * draws: a sample that draws nothing is the same whatever the samples before it drew.
     */
    public static <R> R call(WorkerContext context, long seed, Supplier<R> action, Runnable onDraw) {
        return ScopedValue.where(CURRENT, new WorkerScope(context, seed, Objects.requireNonNull(onDraw, "onDraw")))
                .call(action::get);
    }

    /** Runs {@code action} with {@code context} and a generator made from {@code seed} as the current worker's. */
    public static void run(WorkerContext context, long seed, Runnable action) {
        ScopedValue.where(CURRENT, new WorkerScope(context, seed, null)).run(action);
    }

    static Optional<WorkerContext> context() {
        return CURRENT.isBound() ? Optional.of(CURRENT.get().context) : Optional.empty();
    }

    static RandomGenerator random() {
        WorkerScope scope = bound();
        if (scope.random == null) {
            scope.random = new SplittableRandom(scope.seed);
            if (scope.onDraw != null) {
                scope.onDraw.run();
            }
        }
        return scope.random;
    }

    static long seed() {
        return bound().seed;
    }

    private static WorkerScope bound() {
        if (!CURRENT.isBound()) {
            throw new IllegalStateException("not inside a loader's fetch: the current worker's generator exists only"
                    + " while a DataLoader fetches a sample, opens a stream or runs its workerInit hook;"
                    + " WorkerContext.current() is empty here");
        }
        return CURRENT.get();
    }
}
