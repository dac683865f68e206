package dev.stoker.cli;

import java.util.Locale;

/**
 * One way of running a workload: how many workers, whether they persist across epochs, whether
 * the dataset fetches a whole batch at once. The names follow the rows of PyTorch's tuning
 * tutorial ({@code nw=4 persistent batched}), so that a row here and a row of the PyTorch peer
 * benchmark read alike.
 *
 * @param numWorkers        worker threads; 0 loads in the consumer's thread
 * @param prefetchFactor    batches in flight per worker (PyTorch's default 2); unused with 0 workers
 * @param persistentWorkers keep the workers between epochs
 * @param batched           the dataset fetches a batch in one call ({@code getBatch}, PyTorch's
 *                          {@code __getitems__}) and the collated batch comes out as it is
 */
public record Configuration(int numWorkers, int prefetchFactor, boolean persistentWorkers, boolean batched) {

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
    }

    /** PyTorch's default prefetch factor, used by every configuration with workers. */
    public static final int DEFAULT_PREFETCH = 2;

    public static Configuration of(int numWorkers, boolean persistentWorkers, boolean batched) {
        return new Configuration(numWorkers, DEFAULT_PREFETCH, persistentWorkers, batched);
    }

    /** The name shown in tables and accepted by {@code --config}: {@code nw=4 persistent batched}. */
    public String name() {
        return "nw=" + numWorkers + (persistentWorkers ? " persistent" : "") + (batched ? " batched" : "");
    }

    /**
     * The same configuration as the PyTorch peer benchmark names it
     * ({@code nw=4,pf=2,persistent,batched(__getitems__)}), to join the two sides' JSON lines.
     */
    public String peerName() {
        return "nw=" + numWorkers + (numWorkers > 0 ? ",pf=" + prefetchFactor : "")
                + (persistentWorkers ? ",persistent" : "") + (batched ? ",batched(__getitems__)" : "");
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
