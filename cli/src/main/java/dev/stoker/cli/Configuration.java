package dev.stoker.cli;

import dev.stoker.collate.DefaultCollate;
import dev.stoker.loader.Autotune;
import dev.stoker.loader.LoaderBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One way of running a workload: how many workers, whether they persist across epochs, whether
 * the dataset fetches a whole batch at once, whether it writes samples straight into the batch.
 * The names follow the rows of PyTorch's tuning tutorial ({@code nw=4 persistent batched}), so
 * that a row here and a row of the PyTorch peer benchmark read alike; {@code fill} rows have no
 * PyTorch counterpart.
 *
 * @param numWorkers        worker threads; 0 loads in the consumer's thread
 * @param prefetchFactor    batches in flight per worker (PyTorch's default 2); unused with 0 workers
 * @param persistentWorkers keep the workers between epochs
 * @param batched           the dataset fetches a batch in one call ({@code getBatch}, PyTorch's
 *                          {@code __getitems__}) and the collated batch comes out as it is
 * @param fill              the zero-copy path: the dataset (a {@code FillableDataset}) writes each
 *                          sample into its slot of the batch, no collate; with {@code batched}, one
 *                          {@code fillBatch} per batch
 * @param ioConcurrency     the loader's I/O mode ({@code LoaderBuilder.ioConcurrency}): the
 *                          samples of a batch fetched at once on virtual threads, at most this many
 *                          at once; 0 for off. Shown as {@code io=32}; no PyTorch counterpart
 * @param raw               the workload's samples read and batched without their per-sample work
 *                          (W5: tar members grouped into samples, no JPEG decode), to show what the
 *                          reading alone costs. Shown as {@code raw}; no PyTorch counterpart
 * @param autotuneBytes     the loader's autotuner's memory budget ({@code LoaderBuilder.autotune}),
 *                          which then chooses the workers and prefetch itself (numWorkers is its
 *                          lanes); 0 for the fixed numWorkers and prefetch. Shown as {@code autotune}
 * @param autotuneStart     the workers the autotuner starts at ({@code Autotune.startingAt}; 1
 *                          unless set, 0 the consumer's thread); unused without it
 */
public record Configuration(int numWorkers, int prefetchFactor, boolean persistentWorkers, boolean batched,
                            boolean fill, int ioConcurrency, boolean raw, long autotuneBytes, int autotuneStart) {

    /** A configuration, tuned or not, whose autotuner starts at one worker. */
    public Configuration(int numWorkers, int prefetchFactor, boolean persistentWorkers, boolean batched,
                         boolean fill, int ioConcurrency, boolean raw, long autotuneBytes) {
        this(numWorkers, prefetchFactor, persistentWorkers, batched, fill, ioConcurrency, raw, autotuneBytes, 1);
    }

    /** A configuration with fixed workers and prefetch. */
    public Configuration(int numWorkers, int prefetchFactor, boolean persistentWorkers, boolean batched,
                         boolean fill, int ioConcurrency, boolean raw) {
        this(numWorkers, prefetchFactor, persistentWorkers, batched, fill, ioConcurrency, raw, 0);
    }

    /** A configuration that does the workload's whole per-sample work. */
    public Configuration(int numWorkers, int prefetchFactor, boolean persistentWorkers, boolean batched,
                         boolean fill, int ioConcurrency) {
        this(numWorkers, prefetchFactor, persistentWorkers, batched, fill, ioConcurrency, false);
    }

    /** A configuration without the I/O mode. */
    public Configuration(int numWorkers, int prefetchFactor, boolean persistentWorkers, boolean batched,
                         boolean fill) {
        this(numWorkers, prefetchFactor, persistentWorkers, batched, fill, 0);
    }

    /** A configuration of the general path: samples fetched, then collated. */
    public Configuration(int numWorkers, int prefetchFactor, boolean persistentWorkers, boolean batched) {
        this(numWorkers, prefetchFactor, persistentWorkers, batched, false);
    }

    public Configuration {
        if (numWorkers < 0) {
            throw new IllegalArgumentException("numWorkers must be 0 or more, not " + numWorkers);
        }
        if (prefetchFactor < 1) {
            throw new IllegalArgumentException("prefetchFactor must be 1 or more, not " + prefetchFactor);
        }
        if (persistentWorkers && numWorkers == 0) {
            throw new IllegalArgumentException("persistent workers need numWorkers > 0");
        }
        if (autotuneBytes < 0) {
            throw new IllegalArgumentException("the autotune budget must be 0 (off) or more, not " + autotuneBytes);
        }
        if (ioConcurrency < 0) {
            throw new IllegalArgumentException("ioConcurrency must be 0 (off) or more, not " + ioConcurrency);
        }
    }

    /** PyTorch's default prefetch factor, used by every configuration with workers. */
    public static final int DEFAULT_PREFETCH = 2;

    public static Configuration of(int numWorkers, boolean persistentWorkers, boolean batched) {
        return new Configuration(numWorkers, DEFAULT_PREFETCH, persistentWorkers, batched);
    }

    /** The general path without workers ({@code nw=0}): samples fetched one by one, then collated. */
    static final Configuration GENERAL = of(0, false, false);

    /** The zero-copy path without workers ({@code nw=0 fill}): each sample written into the batch. */
    static final Configuration FILL = GENERAL.withFill();

    /** The zero-copy path a batch at a time, without workers ({@code nw=0 batched fill}): one {@code fillBatch}. */
    static final Configuration BATCHED_FILL = of(0, false, true).withFill();

    /**
     * The usual table of rows: for each worker count in turn, each of {@code paths} (given without
     * workers) with that many workers. {@code rows(List.of(0, 2), GENERAL, FILL)} gives
     * {@code nw=0, nw=0 fill, nw=2, nw=2 fill}.
     */
    static List<Configuration> rows(List<Integer> workers, Configuration... paths) {
        List<Configuration> out = new ArrayList<>();
        for (int n : workers) {
            for (Configuration p : paths) {
                out.add(p.withWorkers(n));
            }
        }
        return List.copyOf(out);
    }

    /** The same configuration with {@code n} workers (persistent only where there are workers to keep). */
    public Configuration withWorkers(int n) {
        return new Configuration(n, prefetchFactor, persistentWorkers && n > 0, batched, fill, ioConcurrency, raw,
                autotuneBytes, autotuneStart);
    }

    /** The same configuration on the zero-copy path ({@link #fill}). */
    public Configuration withFill() {
        return new Configuration(numWorkers, prefetchFactor, persistentWorkers, batched, true, ioConcurrency, raw,
                autotuneBytes, autotuneStart);
    }

    /** The same configuration in the loader's I/O mode, {@code concurrency} fetches at once. */
    public Configuration withIo(int concurrency) {
        return new Configuration(numWorkers, prefetchFactor, persistentWorkers, batched, fill, concurrency, raw,
                autotuneBytes, autotuneStart);
    }

    /** The same configuration reading raw samples only ({@link #raw}). */
    public Configuration withRaw() {
        return new Configuration(numWorkers, prefetchFactor, persistentWorkers, batched, fill, ioConcurrency, true,
                autotuneBytes, autotuneStart);
    }

    /**
     * The same configuration with the loader's autotuner choosing its workers and prefetch within
     * {@code budgetBytes}, on {@code lanes} worker threads.
     */
    public Configuration withAutotune(long budgetBytes, int lanes) {
        return withAutotune(budgetBytes, lanes, 1);
    }

    /** As {@link #withAutotune(long, int)}, the autotuner starting at {@code start} workers (0: the consumer's thread). */
    public Configuration withAutotune(long budgetBytes, int lanes, int start) {
        return new Configuration(lanes, prefetchFactor, persistentWorkers && lanes > 0, batched, fill, ioConcurrency,
                raw, budgetBytes, start);
    }

    /**
     * Sets this configuration's engine on a loader being built: workers, prefetch, persistent
     * workers and I/O concurrency. The path (fill, or samples then a collate) stays the caller's;
     * see {@link #applyTo} for workloads whose general path is the default collate.
     */
    <T> LoaderBuilder<T> engine(LoaderBuilder<T> builder) {
        if (autotuneBytes > 0) {
            return builder.autotune(Autotune.budget(autotuneBytes).maxWorkers(Math.max(1, numWorkers))
                            .startingAt(autotuneStart))
                    .persistentWorkers(persistentWorkers).ioConcurrency(ioConcurrency);
        }
        return builder.numWorkers(numWorkers).prefetchFactor(prefetchFactor()).persistentWorkers(persistentWorkers)
                .ioConcurrency(ioConcurrency);
    }

    /**
     * Sets this configuration's engine and path: a fill row gives no collate, so a fillable dataset
     * writes straight into the batch; any other row gives {@link DefaultCollate}, so each sample is
     * made and then stacked, PyTorch's path.
     */
    <T> LoaderBuilder<T> applyTo(LoaderBuilder<T> builder) {
        engine(builder);
        return fill ? builder : builder.collate(DefaultCollate.instance());
    }

    /** The name shown in tables and accepted by {@code --config}: {@code nw=4 persistent batched fill}. */
    public String name() {
        return "nw=" + numWorkers + (persistentWorkers ? " persistent" : "") + (batched ? " batched" : "")
                + (fill ? " fill" : "") + (ioConcurrency > 0 ? " io=" + ioConcurrency : "") + (raw ? " raw" : "")
                + (autotuneBytes > 0 ? " autotune=" + ByteSize.format(autotuneBytes).replace(" ", "") : "");
    }

    /**
     * The same configuration as the PyTorch peer benchmark names it
     * ({@code nw=4,pf=2,persistent,batched(__getitems__)}), to join the two sides' JSON lines.
     */
    public String peerName() {
        return "nw=" + numWorkers + (numWorkers > 0 ? ",pf=" + prefetchFactor : "")
                + (persistentWorkers ? ",persistent" : "") + (batched ? ",batched(__getitems__)" : "")
                + (fill ? ",fill" : "") + (ioConcurrency > 0 ? ",io=" + ioConcurrency : "") + (raw ? ",raw" : "");
    }

    /**
     * Whether {@code text} names this configuration: its name or its peer name, ignoring case
     * and whether words are separated by spaces or commas ({@code nw=4,persistent} works too).
     */
    public boolean isNamed(String text) {
        String wanted = normalize(text);
        return wanted.equals(normalize(name())) || wanted.equals(normalize(peerName()));
    }

    private static String normalize(String s) {
        return s.trim().toLowerCase(Locale.ROOT).replaceAll("[\\s,]+", " ");
    }

    @Override
    public String toString() {
        return name();
    }
}
