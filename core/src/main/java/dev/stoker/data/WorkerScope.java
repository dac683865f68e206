package dev.stoker.data;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * The worker a piece of code runs for: its {@link WorkerContext} and its random generator, bound
 * for the duration of a call (a {@link ScopedValue}, so nothing is left behind in the thread when
 * the call returns). The loader binds them around every fetch; a dataset reads them through
 * {@link WorkerContext#current()} and {@link WorkerContext#currentRandom()}.
 *
 * <pre>{@code
 * WorkerContext ctx = new WorkerContext(0, 1, 0, 1, 0, 42);
 * double x = WorkerScope.call(ctx, ctx.newRandom(), () -> WorkerContext.currentRandom().nextDouble());
 * }</pre>
 *
 * <p>NOTE: the generator is used by one thread at a time; bind a generator of its own to each
 * thread that may draw at once.
 */
public final class WorkerScope {
    private static final ScopedValue<WorkerScope> CURRENT = ScopedValue.newInstance();

    private final WorkerContext context;
    private final RandomGenerator random;

    private WorkerScope(WorkerContext context, RandomGenerator random) {
        this.context = Objects.requireNonNull(context, "context");
        this.random = Objects.requireNonNull(random, "random");
    }

    /** Runs {@code action} with {@code context} and {@code random} as the current worker's. */
    public static <R> R call(WorkerContext context, RandomGenerator random, Supplier<R> action) {
        return ScopedValue.where(CURRENT, new WorkerScope(context, random)).call(action::get);
    }

    /** Runs {@code action} with {@code context} and {@code random} as the current worker's. */
    public static void run(WorkerContext context, RandomGenerator random, Runnable action) {
        ScopedValue.where(CURRENT, new WorkerScope(context, random)).run(action);
    }

    static Optional<WorkerContext> context() {
        return CURRENT.isBound() ? Optional.of(CURRENT.get().context) : Optional.empty();
    }

    static RandomGenerator random() {
        if (!CURRENT.isBound()) {
            throw new IllegalStateException("not inside a loader's fetch: the current worker's generator exists only"
                    + " while a DataLoader fetches a sample, opens a stream or runs its workerInit hook;"
                    + " WorkerContext.current() is empty here");
        }
        return CURRENT.get().random;
    }
}
