/**
 * MosaicML Streaming's MDS format: {@link dev.stoker.formats.mds.MdsDataset} reads a directory of
 * MDS shards ({@code index.json} and {@code shard.NNNNN.mds[.zstd|.gz]}) as a map-style dataset,
 * with typed samples ({@link dev.stoker.formats.mds.MdsSample}) and a fill path over fixed-shape
 * columns ({@link dev.stoker.formats.mds.MdsTensorDataset}).
 */
package dev.stoker.formats.mds;
