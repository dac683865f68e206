/**
 * WebDataset tar shards: read, stream, index, write, on the JDK alone.
 *
 * <ul>
 *   <li>{@link dev.stoker.formats.tar.TarReader}: the members of one tar (ustar, pax, GNU long
 *       names; checksums and sizes checked), over a memory map (zero-copy slices) or a stream.
 *   <li>{@link dev.stoker.formats.tar.TarSample}: consecutive members with one key, WebDataset's
 *       rule: key = the path up to the first dot of the file name, extension = the rest.
 *   <li>{@link dev.stoker.formats.tar.TarShardDataset}: a streaming dataset over a shard list
 *       ({@link dev.stoker.formats.tar.ShardPatterns brace-expanded}, local paths and
 *       {@code http(s)://} URLs and {@code pipe:} commands mixed, fetched through
 *       {@link dev.stoker.formats.remote}), split over ranks and workers by
 *       {@link dev.stoker.formats.tar.ShardAssignment}, with a seeded
 *       {@link dev.stoker.formats.tar.ShuffleBuffer}.
 *   <li>{@link dev.stoker.formats.tar.TarTensorStream}: numeric samples ({@code .npy} arrays,
 *       {@code .cls} integers, raw little-endian members) written straight into the batch, WebDataset's
 *       {@code .decode().to_tuple("npy", "cls")} on the fill path; a member that does not fit its
 *       field is a {@link dev.stoker.formats.tar.TarSampleException} naming the shard, key and member.
 *   <li>{@link dev.stoker.formats.tar.ShardIndex} and
 *       {@link dev.stoker.formats.tar.IndexedTarDataset}: a sidecar {@code .idx} per shard that
 *       makes a set of local shards a map-style dataset.
 *   <li>{@link dev.stoker.formats.tar.ShardWriter}: writes shards (and their indices), rolling
 *       over by sample count and bytes, and publishes the set whole on its commit, with a
 *       {@link dev.stoker.formats.tar.ShardSetManifest} written last; {@link dev.stoker.formats.tar.ShardSets}
 *       is the readers' check of it, {@link dev.stoker.formats.tar.ShardOutput} the set's folder.
 * </ul>
 *
 * <p>Errors in a shard are {@link dev.stoker.formats.tar.TarException}s naming the shard and the
 * byte offset; errors in an index are {@link dev.stoker.formats.tar.IndexFormatException}s.
 *
 * <pre>{@code
 * TarShardDataset train = TarShardDataset.builder("data/shard-{000000..000007}.tar")
 *         .shuffleShards(true).shuffleBuffer(1000).build();
 * try (DataLoader<TarSample> loader = DataLoader.builder(train).batchSize(64).numWorkers(4)
 *         .collate(myCollate).build()) {
 *     for (Batch b : loader) { ... }
 * }
 * }</pre>
 */
package dev.stoker.formats.tar;
