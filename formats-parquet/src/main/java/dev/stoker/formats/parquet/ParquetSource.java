package dev.stoker.formats.parquet;

import dev.stoker.data.DataFiles;
import dev.hardwood.HardwoodContext;
import dev.hardwood.metadata.ColumnChunk;
import dev.hardwood.metadata.RowGroup;
import dev.hardwood.reader.ColumnReaders;
import dev.hardwood.reader.ParquetFileReader;
import dev.hardwood.reader.RowGroupPredicate;
import dev.hardwood.schema.ColumnProjection;
import dev.hardwood.schema.ColumnSchema;
import dev.hardwood.schema.FileSchema;
import dev.stoker.formats.mmap.MapFaults;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The files of a dataset, opened once (Hardwood reads each footer; the file is read with positional
 * reads, never through a map that native decompressors would touch: see {@link ReadingInputFile}), their row
 * groups numbered across files with the dataset-wide row each starts at, and the decode of one
 * row group's projected columns. Every size a footer claims is checked before it is used.
 */
final class ParquetSource implements AutoCloseable {
    private final List<Path> paths;
    private final List<ParquetFileReader> readers = new ArrayList<>();
    /** Each file mapped, for the page-header walk ({@link PageHeaders}); closed with the dataset. */
    private final List<MemorySegment> maps = new ArrayList<>();
    private final Arena arena = Arena.ofShared();
    private final HardwoodContext context;
    private final ParquetColumn[] columns;
    /** Per row group: file, group within file, start and end byte of its column chunks. */
    private final int[] groupFile;
    private final int[] groupInFile;
    private final long[] groupBytes;
    /** groups + 1 entries: the dataset-wide first row of each group, then the dataset's size. */
    private final long[] groupStarts;
    private final long maxGroupBytes;
    /** Rows per batch Hardwood decodes a row group in ({@link RowGroupDecoder#BATCH_ROWS}; tests use fewer). */
    private final int batchRows;
    private volatile boolean closed;
    /** Read-aheads running now: {@link #close} waits for them before it closes the readers under them. */
    private final Set<CompletableFuture<RowGroupData>> aheads = ConcurrentHashMap.newKeySet();

    ParquetSource(List<Path> paths, List<String> names, int decodeThreads, long maxGroupRows, long maxGroupBytes) {
        this(paths, names, decodeThreads, maxGroupRows, maxGroupBytes, RowGroupDecoder.BATCH_ROWS);
    }

    ParquetSource(List<Path> paths, List<String> names, int decodeThreads, long maxGroupRows, long maxGroupBytes,
            int batchRows) {
        if (batchRows < 1) {
            throw new IllegalArgumentException("decode at least 1 row per batch, not " + batchRows);
        }
        this.batchRows = batchRows;
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("a Parquet dataset needs at least one file");
        }
        this.paths = List.copyOf(paths);
        this.maxGroupBytes = maxGroupBytes;
        this.context = HardwoodContext.create(decodeThreads);
        try {
            List<int[]> groups = new ArrayList<>();
            List<Long> rows = new ArrayList<>();
            ParquetColumn[] resolved = null;
            for (int f = 0; f < this.paths.size(); f++) {
                Path p = this.paths.get(f);
                ParquetFileReader r = open(p);
                readers.add(r);
                try (FileChannel ch = DataFiles.openChannel(p)) {
                    maps.add(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena));
                } catch (IOException e) {
                    throw new ParquetFormatException(p + ": cannot map the file: " + e.getMessage(), e);
                }
                ParquetColumn[] here;
                try {
                    here = resolve(p, r.getFileSchema(), names);
                } catch (ParquetFormatException e) {
                    throw e;
                } catch (RuntimeException e) {
                    throw new ParquetFormatException(p + ": its schema cannot be read: " + e, e);
                }
                if (resolved == null) {
                    resolved = here;
                } else if (!Arrays.equals(resolved, here)) {
                    throw new ParquetFormatException(p + ": its columns " + Arrays.toString(here) + " differ from "
                            + this.paths.getFirst() + "'s " + Arrays.toString(resolved));
                }
                List<RowGroup> rgs = r.getFileMetaData().rowGroups();
                if (rgs == null) {
                    throw new ParquetFormatException(p + ": the footer lists no row groups");
                }
                for (int g = 0; g < rgs.size(); g++) {
                    long n = rgs.get(g).numRows();
                    if (n < 0 || n > maxGroupRows) {
                        throw new ParquetFormatException(p + ", row group " + g + ": claims " + n + " rows; at most "
                                + maxGroupRows + " are read (ParquetDataset.Builder.maxRowGroupRows)");
                    }
                    if (n > 0) {
                        groups.add(new int[] {f, g});
                        rows.add(n);
                    }
                }
            }
            this.columns = resolved;
            int count = groups.size();
            groupFile = new int[count];
            groupInFile = new int[count];
            groupBytes = new long[2 * count];
            groupStarts = new long[count + 1];
            for (int i = 0; i < count; i++) {
                groupFile[i] = groups.get(i)[0];
                groupInFile[i] = groups.get(i)[1];
                groupStarts[i + 1] = Math.addExact(groupStarts[i], rows.get(i));
                RowGroup rg = readers.get(groupFile[i]).getFileMetaData().rowGroups().get(groupInFile[i]);
                long start = Long.MAX_VALUE;
                long end = Long.MIN_VALUE;
                try {
                    for (ColumnChunk cc : rg.columns()) {
                        start = Math.min(start, cc.chunkStartOffset());
                        end = Math.max(end, Math.addExact(cc.chunkStartOffset(), cc.metaData().totalCompressedSize()));
                    }
                } catch (RuntimeException e) {
                    throw new ParquetFormatException(where(i) + ": its column chunks cannot be located: " + e, e);
                }
                groupBytes[2 * i] = start;
                groupBytes[2 * i + 1] = end;
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private ParquetFileReader open(Path p) {
        try {
            return ParquetFileReader.open(new ReadingInputFile(p), context);
        } catch (IOException | RuntimeException e) {
            throw new ParquetFormatException(p + ": not a readable Parquet file: " + e.getMessage(), e);
        }
    }

    /** The named top-level columns (all readable ones when {@code names} is empty), in that order. */
    private static ParquetColumn[] resolve(Path p, FileSchema schema, List<String> names) {
        Map<String, ParquetColumn> byName = new LinkedHashMap<>();
        Map<String, String> unreadable = new LinkedHashMap<>();
        for (ColumnSchema leaf : schema.getColumns()) {
            List<String> path = leaf.fieldPath().elements();
            String name = leaf.maxRepetitionLevel() == 1 ? path.getFirst() : String.join(".", path);
            ColumnKind kind = ColumnKind.of(leaf);
            if (kind == null || byName.containsKey(name)) {
                unreadable.put(name, leaf.toString());
                byName.remove(name);
                continue;
            }
            byName.put(name, new ParquetColumn(name, String.join(".", path), kind, leaf.maxDefinitionLevel() > 0));
        }
        List<String> wanted = names.isEmpty() ? List.copyOf(byName.keySet()) : names;
        ParquetColumn[] out = new ParquetColumn[wanted.size()];
        for (int i = 0; i < out.length; i++) {
            String n = wanted.get(i);
            out[i] = byName.get(n);
            if (out[i] == null) {
                throw new ParquetFormatException(p + ": " + (unreadable.containsKey(n)
                        ? "column '" + n + "' (" + unreadable.get(n) + ") is not one Stoker reads (numbers, strings,"
                                + " binaries, lists of numbers)"
                        : "no column '" + n + "'; its columns are " + byName.keySet()));
            }
        }
        if (out.length == 0) {
            throw new ParquetFormatException(p + ": no column Stoker can read; unreadable: " + unreadable);
        }
        return out;
    }

    ParquetColumn[] columns() {
        return columns.clone();
    }

    int column(String name) {
        for (int i = 0; i < columns.length; i++) {
            if (columns[i].name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no column '" + name + "' in " + Arrays.toString(columns));
    }

    long size() {
        return groupStarts[groupStarts.length - 1];
    }

    int groups() {
        return groupFile.length;
    }

    long[] groupStarts() {
        return groupStarts.clone();
    }

    long groupStart(int group) {
        return groupStarts[group];
    }

    /** The row group that holds dataset row {@code index}. */
    int groupOf(long index) {
        int i = Arrays.binarySearch(groupStarts, index);
        return i >= 0 ? i : -i - 2;
    }

    /** Where row {@code index} is, for error messages: file, row group, row. */
    String where(int group, long index) {
        return paths.get(groupFile[group]) + ", row group " + groupInFile[group] + ", row "
                + (index - groupStarts[group]);
    }

    /** Where row {@code index}'s value of {@code column} is: file, row group, column, row. */
    String where(int group, long index, String column) {
        return paths.get(groupFile[group]) + ", row group " + groupInFile[group] + ", column '" + column + "', row "
                + (index - groupStarts[group]);
    }

    /** Row {@code index}'s value of {@code column} is bad: {@code what} was wrong. */
    ParquetFormatException badValue(int group, long index, String column, String what) {
        int first = group;
        while (first > 0 && groupFile[first - 1] == groupFile[group]) {
            first--; // the file's first row group: rows are counted in the file
        }
        return new ParquetFormatException(path(group), index - groupStarts[first], where(group, index, column), what);
    }

    String where(int group) {
        return paths.get(groupFile[group]) + ", row group " + groupInFile[group];
    }

    Path path(int group) {
        return paths.get(groupFile[group]);
    }

    List<Path> paths() {
        return paths;
    }

    /** Decodes the projected columns of row group {@code group}. */
    RowGroupData decode(int group) {
        try {
            return decodeMapped(group);
        } catch (InternalError e) {
            // a map fault the page-header walk did not name (the walk names its own, late ones
            // included); decoding reads no map on this thread
            throw MapFaults.changed(e, path(group), maps.get(groupFile[group]).byteSize(), "row "
                    + groupStarts[group] + " (" + where(group) + ")");
        } catch (RuntimeException e) {
            // the same fault met on one of Hardwood's decode threads arrives wrapped
            for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
                if (t instanceof FileCutShortException cut) {
                    throw MapFaults.cutShort(cut.file(), cut.openedSize(), cut.currentSize(), "row "
                            + groupStarts[group] + " (" + where(group) + ")", cut);
                }
                if (t instanceof InternalError ie && MapFaults.isMapFault(ie)) {
                    throw MapFaults.changed(ie, path(group), -1, "row " + groupStarts[group] + " (" + where(group)
                            + ")");
                }
            }
            throw e;
        }
    }

    private RowGroupData decodeMapped(int group) {
        if (closed) {
            throw new IllegalStateException("the Parquet dataset over " + paths.getFirst() + " is closed");
        }
        ParquetFileReader reader = readers.get(groupFile[group]);
        RowGroup rg = reader.getFileMetaData().rowGroups().get(groupInFile[group]);
        int rows = Math.toIntExact(groupStarts[group + 1] - groupStarts[group]);
        try {
            checkSizes(group, rg, rows);
        } catch (ParquetFormatException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ParquetFormatException(where(group) + ": its column chunks' sizes cannot be read: " + e, e);
        }
        String[] paths = new String[columns.length];
        for (int c = 0; c < columns.length; c++) {
            paths[c] = columns[c].path();
        }
        // one reader of every projected column, in batches: see RowGroupDecoder for why
        try (ColumnReaders open = reader.buildColumnReaders(
                ColumnProjection.columns(Arrays.stream(paths).distinct().toArray(String[]::new)))
                .filter(RowGroupPredicate.byteRange(groupBytes[2 * group], groupBytes[2 * group + 1]))
                .batchSize(Math.max(1, Math.min(rows, batchRows))).build()) {
            return RowGroupDecoder.readAll(group, open, columns, rows);
        } catch (ParquetFormatException e) {
            throw e;
        } catch (OutOfMemoryError e) {
            // one oversized array that failed to allocate: nothing else was taken, so the worker can go on
            throw new ParquetFormatException(where(group) + ": decoding needs more memory than the heap has ("
                    + e.getMessage() + ")", e);
        } catch (RuntimeException | StackOverflowError e) {
            // Hardwood's message names the column it was decoding
            throw new ParquetFormatException(where(group) + ": cannot decode: " + e, e);
        }
    }

    /**
     * Starts decoding row group {@code group} on a virtual thread of its own (a read-ahead; see
     * {@link RowGroupCache}). Hardwood decodes on its context's threads, so the virtual thread
     * mostly waits.
     */
    CompletableFuture<RowGroupData> decodeAhead(int group) {
        CompletableFuture<RowGroupData> f = new CompletableFuture<>();
        synchronized (this) {
            if (closed) {
                f.completeExceptionally(new IllegalStateException("the Parquet dataset over " + paths.getFirst()
                        + " is closed"));
                return f;
            }
            aheads.add(f);
        }
        Thread.ofVirtual().name("parquet-read-ahead").start(() -> {
            try {
                f.complete(decode(group));
            } catch (Throwable t) {
                f.completeExceptionally(t);
            } finally {
                aheads.remove(f);
            }
        });
        return f;
    }

    /**
     * Refuses a row group whose claimed sizes do not add up, or would not fit the decode budget.
     */
    private void checkSizes(int group, RowGroup rg, int rows) {
        long decoded = 0;
        for (int i = 0; i < columns.length; i++) {
            ParquetColumn c = columns[i];
            ColumnChunk chunk = null;
            for (ColumnChunk cc : rg.columns()) {
                if (String.join(".", cc.metaData().pathInSchema().elements()).equals(c.path())) {
                    chunk = cc;
                }
            }
            if (chunk == null) {
                throw new ParquetFormatException(where(group) + ", column '" + c.name() + "': no column chunk");
            }
            long values = chunk.metaData().numValues();
            long uncompressed = chunk.metaData().totalUncompressedSize();
            long compressed = chunk.metaData().totalCompressedSize();
            if (values < 0 || uncompressed < 0 || compressed < 0 || (!c.kind().isList() && values != rows)) {
                throw new ParquetFormatException(where(group) + ", column '" + c.name() + "': the chunk claims "
                        + values + " values (" + compressed + " bytes compressed, " + uncompressed
                        + " uncompressed) for " + rows + " rows");
            }
            long pages;
            MemorySegment map = maps.get(groupFile[group]);
            try {
                pages = PageHeaders.check(map, chunk.chunkStartOffset(), compressed, maxGroupBytes);
                MapFaults.deliverPending(); // a fault the compiled walk deferred surfaces here, inside the try
            } catch (IllegalStateException e) {
                throw new ParquetFormatException(where(group) + ", column '" + c.name() + "': " + e.getMessage(), e);
            } catch (InternalError e) { // the file shrank under our map of it: name it, as the other mapped readers do
                throw MapFaults.changed(e, path(group), map.byteSize(), "the page headers of row "
                        + groupStarts[group] + " (" + where(group) + ", column '" + c.name() + "')");
            }
            if (pages > maxGroupBytes) {
                throw new ParquetFormatException(where(group) + ", column '" + c.name() + "': its pages hold "
                        + pages + " bytes uncompressed; at most " + maxGroupBytes + " are allowed per row group"
                        + " (ParquetDataset.Builder.maxRowGroupBytes)");
            }
            uncompressed = Math.max(uncompressed, pages);
            int width = c.kind().dtype() == null ? 4 : c.kind().dtype().byteSize();
            long est = Math.max(uncompressed, Math.multiplyHigh(values, width) == 0 ? values * width : Long.MAX_VALUE);
            decoded = est > Long.MAX_VALUE - decoded ? Long.MAX_VALUE : decoded + est + 4L * rows;
        }
        if (decoded > maxGroupBytes) {
            throw new ParquetFormatException(where(group) + ": decoding its " + columns.length + " columns needs about "
                    + decoded + " bytes; at most " + maxGroupBytes + " are allowed per row group"
                    + " (ParquetDataset.Builder.maxRowGroupBytes)");
        }
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (CompletableFuture<RowGroupData> f : aheads) {
            try {
                f.join();   // a decode is bounded: the page headers were walked before it began
            } catch (RuntimeException ignored) {
                // its failure was for the reader that asked, which is gone
            }
        }
        for (ParquetFileReader r : readers) {
            try {
                r.close();
            } catch (IOException | RuntimeException ignored) {
                // closing a read-only mapping: nothing to recover
            }
        }
        context.close();
        arena.close();
    }
}
