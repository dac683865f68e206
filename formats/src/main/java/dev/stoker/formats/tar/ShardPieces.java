package dev.stoker.formats.tar;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What is left of an epoch of shards, for resuming it on another layout
 * ({@link TarShardDataset}'s reshard): a cursor holds, per shard of the dataset's list, how many of
 * its samples the job has delivered, or {@link #DONE}. What is left is a list of pieces, the rest
 * of each unfinished shard in the epoch's shard order, dealt out to the global workers of the new
 * layout as whole shards are ({@code pieces[g::G]}), so each remaining sample goes to exactly one
 * worker, and each worker reads its pieces in order.
 *
 * <pre>{@code
 * int[] order = ShardPieces.epochOrder(shards, true, seed, epoch);
 * long[] cursor = ShardPieces.advance(order, null, counts, positions, ended);  // after 2 x 4 streams
 * List<ShardPieces.Piece> mine = ShardPieces.mine(ShardPieces.left(order, cursor), g, G);
 * }</pre>
 */
final class ShardPieces {
    /** A shard whose every sample was delivered. */
    static final long DONE = -1;

    /** Shard {@code shard} (its position in the dataset's list) from its sample {@code from} on. */
    record Piece(int shard, long from) {}

    private ShardPieces() {}

    /** The epoch's shard order, as positions in {@code shards} (repeated names keep their order). */
    static int[] epochOrder(List<String> shards, boolean shuffle, long seed, long epoch) {
        Map<String, ArrayDeque<Integer>> positions = new HashMap<>();
        for (int i = 0; i < shards.size(); i++) {
            positions.computeIfAbsent(shards.get(i), k -> new ArrayDeque<>()).add(i);
        }
        List<String> ordered = ShardAssignment.order(shards, shuffle, seed, epoch);
        int[] out = new int[ordered.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = positions.get(ordered.get(i)).poll();
        }
        return out;
    }

    /** The pieces left after {@code cursor} (null: every shard from its start), in epoch order. */
    static List<Piece> left(int[] order, long[] cursor) {
        List<Piece> out = new ArrayList<>();
        for (int s : order) {
            long from = cursor == null ? 0 : cursor[s];
            if (from != DONE) {
                out.add(new Piece(s, from));
            }
        }
        return out;
    }

    /** Global worker {@code g} of {@code workers}'s pieces. */
    static List<Piece> mine(List<Piece> pieces, int g, int workers) {
        List<Piece> out = new ArrayList<>();
        for (int i = g; i < pieces.size(); i += workers) {
            out.add(pieces.get(i));
        }
        return out;
    }

    /**
     * The cursor once the {@code positions.length} streams of a layout, started at {@code start},
     * have delivered {@code positions[g]} samples each (a stream that {@code ended} delivers no
     * more: its pieces count as done).
     *
     * @param counts the samples of each shard of the dataset's list
     * @throws IllegalStateException when a position runs past what its stream held (the shards
     *     changed since the state was taken)
     */
    static long[] advance(int[] order, long[] start, long[] counts, long[] positions, boolean[] ended) {
        long[] cursor = new long[counts.length];
        Arrays.fill(cursor, DONE);
        List<Piece> pieces = left(order, start);
        int streams = positions.length;
        for (int g = 0; g < streams; g++) {
            long left = positions[g];
            for (Piece p : mine(pieces, g, streams)) {
                long available = counts[p.shard()] - p.from();
                long taken = ended[g] ? available : Math.min(left, available);
                left -= Math.min(left, taken);
                cursor[p.shard()] = p.from() + taken == counts[p.shard()] ? DONE : p.from() + taken;
            }
            if (left > 0 && !ended[g]) {
                throw new IllegalStateException("stream " + g + " delivered " + positions[g] + " samples, more than"
                        + " its shards hold now: the shards changed since the state was taken");
            }
        }
        return cursor;
    }
}
