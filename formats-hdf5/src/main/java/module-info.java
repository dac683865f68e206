/** HDF5 datasets through jhdf (pure Java; an automatic module named {@code io.jhdf}). */
module dev.stoker.formats.hdf5 {
    requires transitive dev.stoker.formats;
    requires io.jhdf;

    exports dev.stoker.formats.hdf5;
}
