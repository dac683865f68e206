/**
 * HDF5 files as h5py writes them: {@link dev.stoker.formats.hdf5.Hdf5Dataset} indexes the first
 * axis of one or more arrays of a file, reading contiguous arrays through a memory map and chunked
 * or compressed ones through jhdf (io.jhdf:jhdf, which also reads the file's structure). The file is
 * untrusted input: every offset and size is checked against its length before mapping, and every
 * refusal ({@link dev.stoker.formats.hdf5.Hdf5FormatException}) names the file and the array.
 */
package dev.stoker.formats.hdf5;
