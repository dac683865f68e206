package dev.stoker.formats.mds;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One file of a shard as {@code index.json} lists it ({@code raw_data} or {@code zip_data}).
 *
 * @param basename its name in the dataset directory, checked to be a plain file name
 *                 ({@link dev.stoker.formats.remote.DataFileNames})
 * @param bytes    its size in bytes
 * @param hashes   algorithm name to lower-case hex digest, as Streaming's writer computed them
 */
record MdsFileInfo(String basename, long bytes, Map<String, String> hashes) {
    MdsFileInfo {
        hashes = Collections.unmodifiableMap(new LinkedHashMap<>(hashes)); // index order: messages stay stable
    }
}
