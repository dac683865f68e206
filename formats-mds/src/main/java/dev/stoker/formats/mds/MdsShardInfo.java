package dev.stoker.formats.mds;

import java.util.List;

/**
 * One shard of an MDS dataset as {@code index.json} describes it, checked for type and range.
 *
 * @param position    its position in the index, from 0
 * @param columns     its columns, in the order the sample bytes hold them
 * @param samples     the number of samples it holds (the shard file must say the same)
 * @param compression the compression of its zip file ({@code "zstd:7"}, {@code "gz"}), or null
 * @param raw         the uncompressed file
 * @param zip         the compressed file, or null where the shard is stored uncompressed
 */
record MdsShardInfo(int position, List<MdsColumn> columns, long samples, String compression, MdsFileInfo raw,
                    MdsFileInfo zip) {
    MdsShardInfo {
        columns = List.copyOf(columns);
    }

    /** The number of columns whose values vary in size (each with a u32 size in every sample). */
    int variableColumns() {
        int n = 0;
        for (MdsColumn c : columns) {
            n += c.variable() ? 1 : 0;
        }
        return n;
    }

    /** For messages: {@code shard 3 (shard.00003.mds)}. */
    String label() {
        return "shard " + position + " (" + (zip != null ? zip.basename() : raw.basename()) + ")";
    }
}
