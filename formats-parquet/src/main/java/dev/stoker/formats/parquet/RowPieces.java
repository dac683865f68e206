package dev.stoker.formats.parquet;

import java.util.ArrayList;
import java.util.List;

/**
 * What is left of a {@link ParquetStream}'s epoch, for resuming it on another layout: a list of
 * pieces, each the rows {@code from, from + step, ...} of one row group, in the order they are
 * dealt. An epoch starts as every row group whole ({@code from 0, step 1}) in the epoch's order.
 *
 * <p>Pieces are dealt to the {@code G} global workers of a layout as {@link ParquetStream} deals
 * row groups: with at least {@code G} pieces, worker {@code g} reads pieces {@code g, g + G, ...}
 * whole; with fewer, every worker reads every piece and keeps its rows {@code g, g + G, ...}
 * (piece {@code (from, step)} becomes {@code (from + g * step, G * step)}). Either way each row
 * left goes to exactly one worker, and a stream's position says which of its rows it delivered
 * (it reads its pieces in order), so the rest is again a list of pieces.
 *
 * <p>As a cursor ({@code long[]}): the number of row groups of the file set (a cursor of other
 * files is refused), then {@code group, from, step} per piece.
 */
final class RowPieces {

    /** The rows {@code from, from + step, ...} of row group {@code group}. */
    record Piece(int group, long from, long step) {
        /** Its rows, in a group of {@code rows}. */
        long count(long rows) {
            return from >= rows ? 0 : (rows - from + step - 1) / step;
        }
    }

    private RowPieces() {}

    /** The epoch's start: each row group of {@code order} whole. */
    static List<Piece> whole(int[] order) {
        List<Piece> out = new ArrayList<>(order.length);
        for (int g : order) {
            out.add(new Piece(g, 0, 1));
        }
        return out;
    }

    /** Global worker {@code g} of {@code workers}'s pieces, in reading order. */
    static List<Piece> mine(List<Piece> pieces, int g, int workers) {
        List<Piece> out = new ArrayList<>();
        if (pieces.size() >= workers) {
            for (int i = g; i < pieces.size(); i += workers) {
                out.add(pieces.get(i));
            }
        } else {
            for (Piece p : pieces) {
                out.add(new Piece(p.group(), p.from() + g * p.step(), Math.multiplyExact(p.step(), (long) workers)));
            }
        }
        return out;
    }

    /**
     * What is left once the {@code positions.length} streams dealt {@code pieces} delivered
     * {@code positions[g]} rows each ({@code ended[g]}: all of its rows); empty pieces are left out.
     *
     * @param groupStarts the row where each row group starts, and the total last
     * @throws IllegalStateException when a position runs past what its stream held (the files
     *     changed since the state was taken)
     */
    static List<Piece> advance(List<Piece> pieces, long[] groupStarts, long[] positions, boolean[] ended) {
        int streams = positions.length;
        boolean whole = pieces.size() >= streams;
        Piece[][] rest = new Piece[pieces.size()][whole ? 1 : streams]; // what is left of piece i's part of stream g
        for (int g = 0; g < streams; g++) {
            long todo = positions[g];
            for (int i = whole ? g : 0; i < pieces.size(); i += whole ? streams : 1) {
                Piece p = mine(List.of(pieces.get(i)), whole ? 0 : g, whole ? 1 : streams).get(0);
                long n = p.count(rows(groupStarts, p.group()));
                long taken = ended[g] ? n : Math.min(todo, n);
                todo -= Math.min(todo, taken);
                if (taken < n) {
                    rest[i][whole ? 0 : g] = new Piece(p.group(), p.from() + taken * p.step(), p.step());
                }
            }
            if (todo > 0 && !ended[g]) {
                throw new IllegalStateException("stream " + g + " delivered " + positions[g] + " rows, more than its "
                        + "row groups hold now: the files changed since the state was taken");
            }
        }
        List<Piece> out = new ArrayList<>(); // in the dealing's order: by piece, then by stream
        for (Piece[] parts : rest) {
            for (Piece r : parts) {
                if (r != null) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    private static long rows(long[] groupStarts, int group) {
        return groupStarts[group + 1] - groupStarts[group];
    }

    /** The cursor of {@code pieces} over {@code groups} row groups. */
    static long[] toCursor(List<Piece> pieces, int groups) {
        long[] out = new long[1 + 3 * pieces.size()];
        out[0] = groups;
        for (int i = 0; i < pieces.size(); i++) {
            Piece p = pieces.get(i);
            out[1 + 3 * i] = p.group();
            out[2 + 3 * i] = p.from();
            out[3 + 3 * i] = p.step();
        }
        return out;
    }

    /**
     * The pieces of a cursor from a saved state, checked against the files' row groups.
     *
     * @throws IllegalArgumentException saying what does not fit
     */
    static List<Piece> fromCursor(long[] cursor, long[] groupStarts, String name) {
        int groups = groupStarts.length - 1;
        if (cursor.length == 0 || (cursor.length - 1) % 3 != 0) {
            throw new IllegalArgumentException("a cursor of " + cursor.length + " entries is not a row-group count and"
                    + " (group, from, step) triples");
        }
        if (cursor[0] != groups) {
            throw new IllegalArgumentException("the cursor is of " + cursor[0] + " row groups, but " + name + " has "
                    + groups + ": a state of other files?");
        }
        List<Piece> out = new ArrayList<>((cursor.length - 1) / 3);
        for (int i = 1; i < cursor.length; i += 3) {
            long group = cursor[i];
            long from = cursor[i + 1];
            long step = cursor[i + 2];
            if (group < 0 || group >= groups) {
                throw new IllegalArgumentException("the cursor names row group " + group + ", but " + name + " has "
                        + groups);
            }
            long rows = rows(groupStarts, (int) group);
            if (from < 0 || from > rows || step < 1 || step > groupStarts[groups] + 1) {
                throw new IllegalArgumentException("the cursor's piece of row group " + group + " (from row " + from
                        + ", every " + step + ") does not fit its " + rows + " rows");
            }
            out.add(new Piece((int) group, from, step));
        }
        return out;
    }
}
