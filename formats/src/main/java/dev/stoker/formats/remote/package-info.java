/**
 * Remote files for every reader: {@code http(s)://} URLs and {@code pipe:} commands read as
 * streams behind a read-ahead buffer and a stall guard, and a local {@link
 * dev.stoker.formats.remote.ShardCache} that keeps whole copies of them for the epochs after the
 * first. Tar shards ({@code formats.tar}) and MDS datasets use it; a new reader opens a remote
 * file the same way.
 *
 * <ul>
 *   <li>{@link dev.stoker.formats.remote.RemoteFile}: where a file is fetched from. A location the
 *       user wrote whole is taken as written ({@link dev.stoker.formats.remote.RemoteFile#at}); a
 *       name that comes from data is placed into the user's template by
 *       {@link dev.stoker.formats.remote.RemoteFile#of}, through the {@code STOKER_FILE}
 *       environment variable, never into a command's text.
 *   <li>{@link dev.stoker.formats.remote.RemoteSettings}: the HTTP client, the read-ahead and the
 *       stall timeout (a read that waits longer for the next bytes fails, naming the location).
 *   <li>{@link dev.stoker.formats.remote.DataFileNames}: the rule that names from data are plain
 *       file names, a second wall behind the environment variable.
 *   <li>{@link dev.stoker.formats.remote.ShardCache}: copies kept whole or not at all (atomic
 *       rename), shared by processes, evicted least recently used under a limit.
 * </ul>
 *
 * <p>A file that cannot be fetched is a {@link dev.stoker.formats.remote.RemoteFileException}
 * naming the location; a stream that fails later (a stall, a command's failing exit status) fails
 * its reads with an {@link java.io.IOException} naming it, which the reader reports with its own
 * position in the file.
 *
 * <pre>{@code
 * // streamed, never held whole:
 * try (RemoteBytes body = RemoteFile.at("pipe:aws s3 cp s3://bucket/train.jsonl -").open(RemoteSettings.defaults())) {
 *     ...
 * }
 * // a local copy, fetched once, memory-mappable:
 * Path copy = ShardCache.in(Path.of("/ssd/cache")).fetchFile(RemoteFile.of("https://host/data/", "train.parquet"));
 * }</pre>
 */
package dev.stoker.formats.remote;
