/**
 * HDF5 files as h5py writes them: {@link dev.stoker.formats.hdf5.Hdf5Dataset} indexes the first
 * axis of one or more arrays of a file, reading contiguous and unfiltered chunked arrays in place
 * through a memory map and decoding compressed chunks itself; jhdf (io.jhdf:jhdf) reads the file's
 * structure, through a storage that checks every read. The file is untrusted input: every offset
 * and size is checked against its length before reading, mapping or allocating, and every refusal
 * ({@link dev.stoker.formats.hdf5.Hdf5FormatException}) names the file and the array.
 */
package dev.stoker.formats.hdf5;
