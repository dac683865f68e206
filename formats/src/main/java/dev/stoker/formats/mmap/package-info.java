/**
 * Memory-mapped files through the FFM API, shared by the formats:
 * {@link dev.stoker.formats.mmap.MappedFile} (a whole file, past 2 GiB too) and
 * {@link dev.stoker.formats.mmap.SharedArena} (one reference-counted arena for a group of files,
 * as Lucene's {@code MMapDirectory} does).
 */
package dev.stoker.formats.mmap;
