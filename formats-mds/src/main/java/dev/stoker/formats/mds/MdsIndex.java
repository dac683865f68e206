package dev.stoker.formats.mds;

import dev.stoker.data.DataFiles;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stoker.formats.remote.DataFileNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads and checks an MDS {@code index.json}: {@code {"version": 2, "shards": [...]}}. Every field
 * Stoker uses is checked for presence, type and range before anything is read from a shard, so
 * later code can trust the index's numbers as bounds (the shard files are checked against them).
 *
 * @param file   the index file
 * @param shards its shards, in order
 */
record MdsIndex(Path file, List<MdsShardInfo> shards) {
    /** An index above this size is refused before it is parsed: 1.5 million shards at ~700 bytes each. */
    static final long MAX_INDEX_BYTES = 1L << 30;
    private static final long MAX_U32 = 0xFFFF_FFFFL;
    private static final ObjectMapper JSON = new ObjectMapper();

    MdsIndex {
        shards = List.copyOf(shards);
    }

    /** The columns every shard has (the first shard's; {@link #read} checks the others agree). */
    List<MdsColumn> columns() {
        return shards.getFirst().columns();
    }

    static MdsIndex read(Path file) {
        JsonNode root;
        try {
            DataFiles.requireRegularFile(file); // a FIFO would block the read, a device read without end
            long size = Files.size(file);
            if (size > MAX_INDEX_BYTES) {
                throw new MdsFormatException(file + ": the index is " + size + " bytes, more than the "
                        + MAX_INDEX_BYTES + " Stoker reads");
            }
            root = JSON.readTree(file.toFile());
        } catch (NoSuchFileException e) {
            long shards = shardFilesBeside(file);
            throw new MdsFormatException(file + ": no index.json here; an MDS dataset directory holds index.json"
                    + " and its shards (give the split's directory, or the split name, for a split dataset)"
                    + (shards > 0 ? "; the " + shards + " shard files there without it are a dataset whose writer"
                    + " never committed (failed, running or killed): write it again" : ""), e);
        } catch (JacksonException e) {
            throw new MdsFormatException(file + ": not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new MdsFormatException(file + ": cannot read the index: " + e, e);
        }
        if (root == null || !root.isObject()) {
            throw new MdsFormatException(file + ": the index must be a JSON object with 'version' and 'shards'");
        }
        JsonNode version = root.get("version");
        if (version == null || !version.isIntegralNumber() || version.asLong() != 2) {
            throw new MdsFormatException(file + ": index version " + version + " is not 2, the version Stoker reads");
        }
        JsonNode shardsNode = root.get("shards");
        if (shardsNode == null || !shardsNode.isArray()) {
            throw new MdsFormatException(file + ": 'shards' must be a list");
        }
        if (shardsNode.isEmpty()) {
            throw new MdsFormatException(file + ": the index lists no shards");
        }
        List<MdsShardInfo> shards = new ArrayList<>(shardsNode.size());
        Set<String> names = new HashSet<>(Set.of("index.json"));
        for (int i = 0; i < shardsNode.size(); i++) {
            MdsShardInfo s = shard(file, i, shardsNode.get(i));
            // Two shards on one file, or a raw file named like another's zip file, would let one
            // shard's decompression overwrite another's data.
            for (MdsFileInfo f : s.zip() == null ? List.of(s.raw()) : List.of(s.raw(), s.zip())) {
                if (!names.add(f.basename())) {
                    throw new MdsFormatException(file + ": shard " + i + ": the file name '" + f.basename()
                            + "' is used twice in the index");
                }
            }
            if (!s.columns().equals(shards.isEmpty() ? s.columns() : shards.getFirst().columns())) {
                throw new MdsFormatException(file + ": shard " + i + " has columns " + s.columns()
                        + " but shard 0 has " + shards.getFirst().columns() + "; Stoker reads datasets whose"
                        + " shards share their columns");
            }
            shards.add(s);
        }
        return new MdsIndex(file, shards);
    }

    /** The MDS shard files beside {@code indexFile}: there without an index, a writer did not finish. */
    static long shardFilesBeside(Path indexFile) {
        Path dir = indexFile.toAbsolutePath().getParent();
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().matches("shard\\.\\d{5}\\.mds(\\.\\w+)?")).count();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static MdsShardInfo shard(Path file, int i, JsonNode s) {
        String where = file + ": shard " + i;
        if (s == null || !s.isObject()) {
            throw new MdsFormatException(where + ": each shard must be a JSON object");
        }
        String format = text(where, s, "format");
        if (!format.equals("mds")) {
            throw new MdsFormatException(where + ": its format is '" + format + "'; Stoker reads MDS shards only"
                    + " (rewrite " + format + " shards with Streaming's MDSWriter)");
        }
        long version = integer(where, s, "version", 0, Long.MAX_VALUE);
        if (version != 2) {
            throw new MdsFormatException(where + ": shard version " + version + " is not 2, the version Stoker reads");
        }
        JsonNode names = array(where, s, "column_names");
        JsonNode encodings = array(where, s, "column_encodings");
        JsonNode sizes = array(where, s, "column_sizes");
        if (names.isEmpty() || names.size() != encodings.size() || names.size() != sizes.size()) {
            throw new MdsFormatException(where + ": column_names, column_encodings and column_sizes must be"
                    + " non-empty lists of one length; they have " + names.size() + ", " + encodings.size()
                    + " and " + sizes.size() + " entries");
        }
        List<MdsColumn> columns = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int c = 0; c < names.size(); c++) {
            JsonNode n = names.get(c);
            JsonNode e = encodings.get(c);
            JsonNode z = sizes.get(c);
            if (!n.isTextual() || !e.isTextual() || !(z.isNull() || z.isIntegralNumber())) {
                throw new MdsFormatException(where + ": column " + c + ": names and encodings must be strings and"
                        + " sizes integers or null");
            }
            if (!seen.add(n.asText())) {
                throw new MdsFormatException(where + ": the column name '" + n.asText() + "' is used twice");
            }
            MdsEncoding encoding;
            try {
                encoding = MdsEncoding.parse(e.asText());
            } catch (IllegalArgumentException | ArithmeticException ex) {
                throw new MdsFormatException(where + ": column '" + n.asText() + "': " + ex.getMessage(), ex);
            }
            long expected = encoding.fixedSize();
            long given = z.isNull() ? -1 : (z.canConvertToLong() ? z.asLong() : -2);
            if (given != expected) {
                throw new MdsFormatException(where + ": column '" + n.asText() + "' (" + e.asText() + ") has"
                        + " column_size " + z + " but that encoding's values take "
                        + (expected < 0 ? "a varying size (null)" : expected + " bytes"));
            }
            columns.add(new MdsColumn(n.asText(), encoding, expected));
        }
        long samples = integer(where, s, "samples", 0, MAX_U32);
        JsonNode compressionNode = s.get("compression");
        String compression = null;
        if (compressionNode != null && !compressionNode.isNull()) {
            if (!compressionNode.isTextual()) {
                throw new MdsFormatException(where + ": 'compression' must be a string or null");
            }
            compression = compressionNode.asText();
        }
        MdsFileInfo raw = fileInfo(where, s, "raw_data");
        JsonNode zipNode = s.get("zip_data");
        MdsFileInfo zip = zipNode == null || zipNode.isNull() ? null : fileInfo(where, s, "zip_data");
        if ((compression == null) != (zip == null)) {
            throw new MdsFormatException(where + ": 'compression' is " + compression + " but 'zip_data' is "
                    + (zip == null ? "null" : "set") + "; a compressed shard needs both, an uncompressed one neither");
        }
        if (raw.bytes() > MAX_U32) {
            // Offsets in a shard are u32, so no real shard is larger.
            throw new MdsFormatException(where + ": raw_data.bytes is " + raw.bytes() + ", more than an MDS shard"
                    + " can hold (4 GiB: its offsets are u32)");
        }
        return new MdsShardInfo(i, columns, samples, compression, raw, zip);
    }

    private static MdsFileInfo fileInfo(String where, JsonNode shard, String field) {
        JsonNode f = shard.get(field);
        if (f == null || !f.isObject()) {
            throw new MdsFormatException(where + ": '" + field + "' must be an object with basename, bytes, hashes");
        }
        String w = where + ": " + field;
        String basename = text(w, f, "basename");
        // The name becomes a local path and is handed to a pipe: command or pasted into a URL: a
        // plain name only (Streaming writes shard.00000.mds[.zstd]), whatever those do with it.
        DataFileNames.refusal("basename", basename).ifPresent(r -> {
            throw new MdsFormatException(w + ": " + r);
        });
        long bytes = integer(w, f, "bytes", 0, Long.MAX_VALUE);
        Map<String, String> hashes = new LinkedHashMap<>();
        JsonNode h = f.get("hashes");
        if (h != null && !h.isNull()) {
            if (!h.isObject()) {
                throw new MdsFormatException(w + ": 'hashes' must be an object from algorithm to hex digest");
            }
            for (var e : h.properties()) {
                if (!e.getValue().isTextual()) {
                    throw new MdsFormatException(w + ": hash '" + e.getKey() + "' must be a hex string");
                }
                hashes.put(e.getKey(), e.getValue().asText());
            }
        }
        return new MdsFileInfo(basename, bytes, hashes);
    }

    private static String text(String where, JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual()) {
            throw new MdsFormatException(where + ": '" + field + "' must be a string");
        }
        return v.asText();
    }

    private static JsonNode array(String where, JsonNode node, String field) {
        JsonNode v = node.get(field);
        if (v == null || !v.isArray()) {
            throw new MdsFormatException(where + ": '" + field + "' must be a list");
        }
        return v;
    }

    private static long integer(String where, JsonNode node, String field, long min, long max) {
        JsonNode v = node.get(field);
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < min || v.asLong() > max) {
            throw new MdsFormatException(where + ": '" + field + "' must be an integer in [" + min + ", " + max
                    + "], not " + v);
        }
        return v.asLong();
    }
}
