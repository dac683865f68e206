package dev.stoker.data;

/**
 * A streaming dataset that can go on mid-epoch with another number of workers or ranks: it knows
 * how it dealt its data out to the streams of a layout, so it can say, from how far each stream
 * got, what of the epoch is left (a cursor in its own terms), and deal that out again to the
 * streams of a new layout, each remaining sample to exactly one of them.
 *
 * <p>The loader uses it when a saved state is restored on another layout
 * ({@code DataLoader.restore} of a state merged from every rank with {@code LoaderState.merge}).
 * The cursor is kept in the state, so a resharded epoch can stop and be resharded again.
 *
 * <pre>{@code
 * LoaderState all = LoaderState.merge(statesOfEveryRank);   // 2 ranks x 4 workers, mid-epoch
 * loader.restore(all);                                       // this rank of 3, 2 workers
 * }</pre>
 *
 * @param <T> the sample type
 */
public interface ReshardableStreamingDataset<T> extends StreamingDataset<T> {

    /**
     * What is left of epoch {@code epoch} once the {@code positions.length} streams of a layout
     * (global worker {@code g} is stream {@code g}), which started at {@code start} (null: the
     * epoch's start), have delivered {@code positions[g]} samples each; a stream that is
     * {@code ended} delivers nothing more.
     *
     * @throws IllegalStateException when this dataset cannot tell, with a reason (a shuffle buffer
     *     delivers samples out of stream order, say)
     */
    long[] cursor(long seed, long epoch, long[] start, long[] positions, boolean[] ended);

    /**
     * Checks a cursor read from a saved state before any stream opens from it or any new cursor is
     * computed from it: a state is untrusted, and {@code DataLoader.restore} refuses it with this
     * exception rather than fail mid-epoch. The default checks nothing; a dataset whose cursor
     * indexes its shards should check its length and each entry.
     *
     * @throws IllegalArgumentException saying what does not fit this dataset
     */
    default void checkCursor(long[] cursor) {}

    /** This worker's share of what is left after {@code cursor}, as {@link #open(WorkerContext)} deals a whole epoch. */
    SampleStream<T> open(WorkerContext context, long[] cursor);
}
