/**
 * Memory-mapped files through the FFM API, shared by the formats:
 * {@link dev.stoker.formats.mmap.MappedFile} (a whole file, past 2 GiB too) and
 * {@link dev.stoker.formats.mmap.SharedArena} (one reference-counted arena for a group of files,
 * as Lucene's {@code MMapDirectory} does), and {@link dev.stoker.formats.mmap.MapFaults}, which
 * names the file when one shrank under its map (the JVM's nameless {@code InternalError}).
 */
package dev.stoker.formats.mmap;
