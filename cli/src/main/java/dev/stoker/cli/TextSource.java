package dev.stoker.cli;

import dev.stoker.data.DataFiles;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.formats.jsonl.JsonlStream;
import dev.stoker.formats.parquet.ParquetDataset;
import dev.stoker.formats.parquet.ParquetFiles;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * The texts {@code stoker pack --tokenizer} reads, in order: a JSONL file ({@code .gz} too), a
 * folder of them, or Parquet (a file, a folder, a Hugging Face layout), one text per line or row
 * from the field or column named by {@code --text-field}.
 */
sealed interface TextSource extends Iterator<String>, AutoCloseable {

    /** Texts in all (nulls too), for the progress bar. {@code next()} gives null for a null Parquet value. */
    long count();

    /** What the input is, for the summary. */
    String describe();

    /** Where text {@code record} (counted from 0 in the order {@code next()} gives them, nulls too) is, for messages. */
    String where(long record);

    @Override
    void close();

    static TextSource open(Path input, String field) throws IOException {
        if (isParquet(input)) {
            return new Parquet(input, field);
        }
        List<Path> files;
        if (Files.isDirectory(input)) {
            try (Stream<Path> s = Files.list(input)) {
                files = s.filter(p -> {
                    String n = p.getFileName().toString();
                    return n.endsWith(".jsonl") || n.endsWith(".jsonl.gz") || n.endsWith(".json") || n.endsWith(".json.gz");
                }).sorted().toList();
            }
            if (files.isEmpty()) {
                throw new IOException(input + " holds no .jsonl, .jsonl.gz or .parquet files");
            }
        } else {
            files = List.of(input);
        }
        return new Jsonl(files, field);
    }

    private static boolean isParquet(Path input) throws IOException {
        if (Files.isDirectory(input)) {
            try (Stream<Path> s = Files.walk(input)) {
                return s.anyMatch(p -> p.getFileName().toString().endsWith(".parquet"));
            }
        }
        return input.getFileName().toString().endsWith(".parquet");
    }

    /** JSONL lines in file order; counted first (one pass without parsing) so that progress has a total. */
    final class Jsonl implements TextSource {
        private final List<Path> files;
        /** files.size() + 1 entries: the first record of each file, then the count. */
        private final long[] starts;
        private final long count;
        private final SampleStream<String> lines;

        Jsonl(List<Path> files, String field) throws IOException {
            this.files = files;
            this.starts = new long[files.size() + 1];
            for (int f = 0; f < files.size(); f++) {
                starts[f + 1] = starts[f] + countLines(files.get(f));
            }
            this.count = starts[files.size()];
            this.lines = JsonlStream.field(files, field).open(new WorkerContext(0, 1, 0, 1, 0, 0));
        }

        private static long countLines(Path f) throws IOException {
            try (InputStream raw = new BufferedInputStream(DataFiles.newInputStream(f), 1 << 16)) {
                raw.mark(2);
                boolean gzip = raw.read() == 0x1f && raw.read() == 0x8b;
                raw.reset();
                try (InputStream in = gzip ? new GZIPInputStream(raw, 1 << 16) : raw) {
                    byte[] buf = new byte[1 << 16];
                    long lines = 0;
                    int last = '\n';
                    for (int r; (r = in.read(buf)) > 0; ) {
                        for (int i = 0; i < r; i++) {
                            if (buf[i] == '\n') {
                                lines++;
                            }
                        }
                        last = buf[r - 1];
                    }
                    return lines + (last == '\n' ? 0 : 1);
                }
            }
        }

        public long count() {
            return count;
        }

        public String describe() {
            return files.size() == 1 ? "JSONL" : files.size() + " JSONL files";
        }

        public String where(long record) {
            int f = 0;
            while (f + 1 < files.size() && starts[f + 1] <= record) {
                f++; // called once, for an error: a scan is enough
            }
            return files.get(f) + ", line " + (record - starts[f] + 1);
        }

        public boolean hasNext() {
            return lines.hasNext();
        }

        public String next() {
            return lines.next();
        }

        public void close() {
            lines.close();
        }
    }

    /** Parquet rows in file and row order, a row group decoded at a time. */
    final class Parquet implements TextSource {
        private final ParquetDataset rows;
        private final String field;
        private final int files;
        private long next;

        Parquet(Path input, String field) {
            List<Path> files = ParquetFiles.of(input);
            this.files = files.size();
            this.rows = ParquetDataset.builder(files).columns(field).build();
            this.field = field;
        }

        public long count() {
            return rows.size();
        }

        public String describe() {
            return files == 1 ? "Parquet" : files + " Parquet files";
        }

        public String where(long record) {
            return rows.where(record) + ", column '" + field + "'";
        }

        public boolean hasNext() {
            return next < rows.size();
        }

        public String next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            var row = rows.get(next++);
            return row.isNull(field) ? null : row.getString(field); // a null text: the caller counts and skips it
        }

        public void close() {
            rows.close();
        }
    }
}
