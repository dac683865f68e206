package dev.stoker.formats.mds;

import dev.stoker.formats.remote.RemoteFile;
import java.nio.file.Path;

/**
 * How {@link MdsDataset#open(Path, MdsOptions)} opens a dataset.
 *
 * <pre>{@code
 * MdsOptions o = MdsOptions.defaults().split("train").cacheDir(Path.of("/scratch/mds")).verifyHashes(true);
 * MdsOptions r = MdsOptions.defaults().remote("pipe:aws s3 cp s3://bucket/mds/{} -");   // Streaming's remote=
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
 * @param remote       where the dataset's files come from (Streaming's {@code remote}), or null
 *                     when they are in the local directory already: an {@code http(s)://} base URL
 *                     (a file's name is appended after a {@code /}) or a {@code pipe:} command in
 *                     which {@code {}} stands for the file's name ({@code split/index.json},
 *                     {@code split/shard.00000.mds.zstd}), bare or inside quotes. The name is
 *                     handed to the command in the variable {@code STOKER_FILE} ({@code {}}
 *                     becomes {@code "${STOKER_FILE}"}), never pasted into its text, and names
 *                     from the index must be plain file names ({@link dev.stoker.formats.remote.DataFileNames}).
 *                     The local directory is then Streaming's
 *                     {@code local}: the index is fetched when the dataset opens and each shard the
 *                     first time it is needed, kept under {@code .stoker-remote} there, and
 *                     compressed ones are decompressed beside it
 */
public record MdsOptions(String split, Path cacheDir, boolean verifyHashes, String remote) {

    /** No split, decompress beside the shards, no hash check, all files local. */
    public static MdsOptions defaults() {
        return new MdsOptions(null, null, false, null);
    }

    public MdsOptions split(String split) {
        return new MdsOptions(split, cacheDir, verifyHashes, remote);
    }

    public MdsOptions cacheDir(Path cacheDir) {
        return new MdsOptions(split, cacheDir, verifyHashes, remote);
    }

    public MdsOptions verifyHashes(boolean verify) {
        return new MdsOptions(split, cacheDir, verify, remote);
    }

    public MdsOptions remote(String location) {
        return new MdsOptions(split, cacheDir, verifyHashes, location);
    }

    /**
     * Where the file {@code name} (relative to the dataset, e.g. {@code train/index.json}) is
     * fetched from: the name reaches a {@code pipe:} command through its environment, never its
     * text, and is percent-encoded in a URL ({@link RemoteFile#of}).
     */
    RemoteFile remoteFile(String name) {
        return RemoteFile.of(remote, name);
    }
}
