/**
 * LMDB environments read as map-style datasets: {@link dev.stoker.formats.lmdb.LmdbDataset} over
 * an environment opened read-only without locking (as Python's
 * {@code lmdb.open(path, readonly=True, lock=False, readahead=False)}), through lmdbjava, which
 * bundles liblmdb. Decoding the values (JPEG bytes, say) is the vision module's.
 * {@link dev.stoker.formats.lmdb.LmdbWriter} writes new environments in a layout they read.
 *
 * <p>Files are untrusted: before liblmdb touches a data file, its structure is checked in Java
 * (meta pages, every branch and leaf page of the main database, node offsets and extents, overflow
 * ranges, key order), so a damaged or hostile file gives an
 * {@link dev.stoker.formats.lmdb.LmdbException} naming the path, page and byte offset instead of
 * crashing the JVM; {@link dev.stoker.formats.lmdb.LmdbEnvironment#openTrusted} skips the check.
 *
 * <p>NOTE: a data file must not shrink while an environment is open. liblmdb maps
 * {@code data.mdb} itself and walks its pages in native code, where a read past the end of a file
 * that was truncated (or rewritten in place) under the map is a {@code SIGBUS} that kills the JVM:
 * unlike the other mapped formats, which read their maps in Java and name such a file
 * ({@code MappedFileChangedError}), this cannot be caught. The check above covers a file that is
 * short when it is opened; one cut short later is not detected. LMDB itself only ever grows the
 * file; to replace a database, write the new one beside it and rename it (or its folder) over the
 * old, and reopen.
 *
 * <p>JVM flags lmdbjava needs on JDK 25: {@code --add-opens java.base/java.nio=ALL-UNNAMED} and
 * {@code --sun-misc-unsafe-memory-access=allow}.
 */
package dev.stoker.formats.lmdb;
