package dev.stoker.formats.mds;

import java.nio.file.Path;

/**
 * How {@link MdsDataset#open(Path, MdsOptions)} opens a dataset.
 *
 * <pre>{@code
 * MdsOptions o = MdsOptions.defaults().split("train").cacheDir(Path.of("/scratch/mds")).verifyHashes(true);
 * }</pre>
 *
 * @param split        a subdirectory holding the split's own index.json (Streaming's {@code split}
 *                     argument), or null for the directory itself
 * @param cacheDir     where compressed shards are decompressed to, or null for beside them in the
 *                     dataset directory as Streaming does; give one when that directory is read-only.
 *                     A split's shards go to {@code cacheDir/split}. Use one cache directory per
 *                     dataset: a raw file found there with the index's size is taken as the shard's
 * @param verifyHashes whether each shard's raw file is checked against the index's hashes (md5,
 *                     sha1, sha2, sha3) the first time it is opened; an index listing none of those
 *                     (xxHash only) is an error rather than a silent pass
 */
public record MdsOptions(String split, Path cacheDir, boolean verifyHashes) {

    /** No split, decompress beside the shards, no hash check. */
    public static MdsOptions defaults() {
        return new MdsOptions(null, null, false);
    }

    public MdsOptions split(String split) {
        return new MdsOptions(split, cacheDir, verifyHashes);
    }

    public MdsOptions cacheDir(Path cacheDir) {
        return new MdsOptions(split, cacheDir, verifyHashes);
    }

    public MdsOptions verifyHashes(boolean verify) {
        return new MdsOptions(split, cacheDir, verify);
    }
}
