package dev.stoker.formats.parquet;

import dev.stoker.data.SampleStream;
import dev.stoker.data.ReshardableStreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.random.Seeds;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The rows of a {@link ParquetDataset} read as a stream, row group after row group, like a
 * Hugging Face {@code IterableDataset} over Parquet shards: no random access, each row group
 * decoded once per epoch by the one worker that reads it, and the next one decoded while the
 * current one is read (so a worker holds at most two decoded row groups).
 *
 * <p>Row groups are dealt as tar shards are: global worker {@code g} of {@code G} (all ranks'
 * workers together) reads row groups {@code g, g + G, ...} of the epoch's order, which is the files'
 * order, or with {@link #shuffled} a seeded permutation of the row groups, new each epoch and the
 * same on every rank. With fewer row groups than workers, every worker reads every row group and
 * keeps rows {@code g, g + G, ...}, so a small file still feeds every worker (at G decodes a group).
 * A resumed loader moves each stream past what it delivered by row counts, decoding nothing it
 * skips; a state merged from every rank ({@code LoaderState.merge}) restores onto another number
 * of workers or ranks ({@link ReshardableStreamingDataset}): what is left of each row group is
 * dealt again, each row to exactly one stream.
 *
 * <pre>{@code
 * try (ParquetDataset ds = ParquetDataset.huggingFace(Path.of("/data/fineweb"), "train").columns("text").build()) {
 *     DataLoader<ParquetRow> loader = DataLoader.builder(ds.stream().shuffled(true)).batchSize(32)
 *             .numWorkers(4).collate((rows, memory) -> tokenize(rows)).build();
 * }
 * }</pre>
 */
public final class ParquetStream implements ReshardableStreamingDataset<ParquetRow> {
    /** Separates the row-group order from the loader's other streams of (seed, epoch). */
    static final long ORDER_SALT = 0x5051_5254_4753L; // "PQRTGS"

    final ParquetDataset dataset;
    final boolean shuffle;

    ParquetStream(ParquetDataset dataset, boolean shuffle) {
        this.dataset = Objects.requireNonNull(dataset, "dataset");
        this.shuffle = shuffle;
    }

    /** The same stream with the row groups in a seeded order, new each epoch ({@code false}: file order). */
    public ParquetStream shuffled(boolean on) {
        return new ParquetStream(dataset, on);
    }

    /** Chosen numeric columns, written straight into the batch by the loader (see {@link ParquetTensorDataset}). */
    public ParquetTensorStream tensors(FillColumn... fields) {
        return new ParquetTensorStream(this, dataset.tensors(fields));
    }

    /** The row groups of epoch {@code epoch}, in reading order (dataset-wide numbers). */
    int[] order(long seed, long epoch) {
        int n = dataset.source().groups();
        int[] out = new int[n];
        Arrays.setAll(out, i -> i);
        if (shuffle) {
            long stream = Seeds.mix(seed, epoch, ORDER_SALT);
            for (int i = 0; i < n - 1; i++) {
                int j = i + (int) Seeds.below(Seeds.splitMix(stream, i), n - i);
                int t = out[i];
                out[i] = out[j];
                out[j] = t;
            }
        }
        return out;
    }

    @Override
    public SampleStream<ParquetRow> open(WorkerContext context) {
        Objects.requireNonNull(context, "context");
        List<RowPieces.Piece> all = RowPieces.whole(order(context.seed(), context.epoch()));
        return new Rows(RowPieces.mine(all, context.globalWorkerId(), context.globalWorkers()));
    }

    /**
     * What is left of epoch {@code epoch} once the streams of a layout delivered
     * {@code positions}: the rest of each row group as pieces ({@link RowPieces}), read again by
     * the streams of another layout, each row left to exactly one of them. Nothing is decoded:
     * row counts come from the footers.
     */
    @Override
    public long[] cursor(long seed, long epoch, long[] start, long[] positions, boolean[] ended) {
        long[] groupStarts = dataset.source().groupStarts();
        List<RowPieces.Piece> from = start == null ? RowPieces.whole(order(seed, epoch))
                : RowPieces.fromCursor(start, groupStarts, dataset.name());
        return RowPieces.toCursor(RowPieces.advance(from, groupStarts, positions, ended), groupStarts.length - 1);
    }

    /**
     * Checks a cursor from a saved state: the files' row-group count first, then pieces of row
     * groups that exist, each starting inside its group.
     */
    @Override
    public void checkCursor(long[] cursor) {
        RowPieces.fromCursor(cursor, dataset.source().groupStarts(), dataset.name());
    }

    /** This worker's share of what is left after {@code cursor}, dealt as {@link #open(WorkerContext)} deals an epoch. */
    @Override
    public SampleStream<ParquetRow> open(WorkerContext context, long[] cursor) {
        List<RowPieces.Piece> left = RowPieces.fromCursor(cursor, dataset.source().groupStarts(), dataset.name());
        return new Rows(RowPieces.mine(left, context.globalWorkerId(), context.globalWorkers()));
    }

    @Override
    public String name() {
        return "ParquetStream(" + dataset.name() + ")";
    }

    /** One worker's rows: its pieces of row groups in order, each the rows {@code from, from + step, ...}. */
    private final class Rows implements SampleStream<ParquetRow> {
        private final ParquetSource source = dataset.source();
        private final List<RowPieces.Piece> pieces;
        private int at = -1;                 // index into pieces of the current one
        private RowGroupData current;
        private long row;                    // next row of the current group
        private long rows;                   // rows of the current group
        private long step;                   // the current piece's stride
        private CompletableFuture<RowGroupData> ahead;
        private int aheadIndex = -1;         // which of pieces the read-ahead decodes

        Rows(List<RowPieces.Piece> pieces) {
            this.pieces = pieces;
        }

        private long rowsOf(int group) {
            return source.groupStart(group + 1) - source.groupStart(group);
        }

        @Override
        public boolean hasNext() {
            while (current == null || row >= rows) {
                if (at + 1 >= pieces.size()) {
                    return false;
                }
                at++;
                RowPieces.Piece p = pieces.get(at);
                rows = rowsOf(p.group());
                row = p.from();
                step = p.step();
                if (row < rows) {
                    current = take(at);
                }
            }
            return true;
        }

        private RowGroupData take(int index) {
            CompletableFuture<RowGroupData> f = ahead;
            ahead = null;
            int group = pieces.get(index).group();
            RowGroupData d;
            if (f != null && aheadIndex == index) {
                d = RowGroupCache.join(f);
            } else if (current != null && current.group() == group) {
                d = current;                        // a resharded epoch's pieces of one group follow each other
            } else {
                d = source.decode(group);           // a read-ahead of a group skipped over is dropped
            }
            if (index + 1 < pieces.size() && pieces.get(index + 1).group() != group) {
                ahead = source.decodeAhead(pieces.get(index + 1).group());
                aheadIndex = index + 1;
            }
            return d;
        }

        @Override
        public ParquetRow next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            ParquetRow r = new ParquetRow(dataset, current, (int) row);
            row += step;
            return r;
        }

        @Override
        public long skip(long n) {
            long done = 0;
            // the rest of the current piece, then whole pieces by their row counts, decoding none of them
            while (done < n && current != null && row < rows) {
                long take = Math.min((rows - row + step - 1) / step, n - done);
                row += take * step;
                done += take;
            }
            while (done < n && at + 1 < pieces.size() && (current == null || row >= rows)) {
                RowPieces.Piece p = pieces.get(at + 1);
                long mine = p.count(rowsOf(p.group()));
                if (done + mine > n) {
                    break;
                }
                at++;
                current = null;
                done += mine;
            }
            if (done < n && hasNext()) {
                // part of a piece: decode its group and move in
                long take = Math.min((rows - row + step - 1) / step, n - done);
                row += take * step;
                done += take;
            }
            return done;
        }

        @Override
        public void close() {
            current = null;
            if (ahead != null) {
                ahead.cancel(false);   // its decode runs to its end; the source's close waits for it
                ahead = null;
            }
        }
    }
}
