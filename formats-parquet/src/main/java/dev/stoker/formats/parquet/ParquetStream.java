package dev.stoker.formats.parquet;

import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.random.Seeds;
import java.util.Arrays;
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
 * skips.
 *
 * <pre>{@code
 * try (ParquetDataset ds = ParquetDataset.huggingFace(Path.of("/data/fineweb"), "train").columns("text").build()) {
 *     DataLoader<ParquetRow> loader = DataLoader.builder(ds.stream().shuffled(true)).batchSize(32)
 *             .numWorkers(4).collate((rows, memory) -> tokenize(rows)).build();
 * }
 * }</pre>
 */
public final class ParquetStream implements StreamingDataset<ParquetRow> {
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
        int g = context.globalWorkerId();
        int workers = context.globalWorkers();
        int[] order = order(context.seed(), context.epoch());
        if (order.length >= workers) {
            int[] mine = new int[(order.length - g + workers - 1) / workers];
            for (int i = 0; i < mine.length; i++) {
                mine[i] = order[g + i * workers];
            }
            return new Rows(mine, 1, 0);
        }
        return new Rows(order, workers, g);
    }

    @Override
    public String name() {
        return "ParquetStream(" + dataset.name() + ")";
    }

    /** One worker's rows: its row groups in order, every {@code step}-th row from {@code first}. */
    private final class Rows implements SampleStream<ParquetRow> {
        private final ParquetSource source = dataset.source();
        private final int[] groups;
        private final int step;
        private final int first;
        private int at = -1;                 // index into groups of the current row group
        private RowGroupData current;
        private int row;                     // next row of the current group
        private int rows;                    // rows of the current group
        private CompletableFuture<RowGroupData> ahead;
        private int aheadIndex = -1;         // which of groups the read-ahead decodes

        Rows(int[] groups, int step, int first) {
            this.groups = groups;
            this.step = step;
            this.first = first;
        }

        private int rowsOf(int group) {
            return (int) (source.groupStart(group + 1) - source.groupStart(group));
        }

        /** Rows of {@code group} this stream delivers. */
        private int mineOf(int group) {
            int n = rowsOf(group);
            return n <= first ? 0 : (n - first + step - 1) / step;
        }

        @Override
        public boolean hasNext() {
            while (current == null || row >= rows) {
                if (at + 1 >= groups.length) {
                    return false;
                }
                at++;
                current = take(at);
                rows = rowsOf(groups[at]);
                row = first;
            }
            return true;
        }

        private RowGroupData take(int index) {
            CompletableFuture<RowGroupData> f = ahead;
            ahead = null;
            RowGroupData d;
            if (f != null && aheadIndex == index) {
                d = RowGroupCache.join(f);
            } else {
                d = source.decode(groups[index]);   // a read-ahead of a group skipped over is dropped
            }
            if (index + 1 < groups.length) {
                ahead = source.decodeAhead(groups[index + 1]);
                aheadIndex = index + 1;
            }
            return d;
        }

        @Override
        public ParquetRow next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            ParquetRow r = new ParquetRow(dataset, current, row);
            row += step;
            return r;
        }

        @Override
        public long skip(long n) {
            long done = 0;
            // the rest of the current group, then whole groups by their row counts, decoding none of them
            while (done < n && current != null && row < rows) {
                long left = (rows - row + step - 1) / step;
                long take = Math.min(left, n - done);
                row += (int) (take * step);
                done += take;
            }
            while (done < n && at + 1 < groups.length && (current == null || row >= rows)) {
                int mine = mineOf(groups[at + 1]);
                if (done + mine > n) {
                    break;
                }
                at++;
                current = null;
                done += mine;
            }
            if (done < n && hasNext()) {
                // part of a group: decode it and move in
                long left = (rows - row + step - 1) / step;
                long take = Math.min(left, n - done);
                row += (int) (take * step);
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
