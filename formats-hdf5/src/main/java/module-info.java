/** HDF5 datasets through jhdf (pure Java; an automatic module named {@code io.jhdf}). */
// Its dependency names itself (Automatic-Module-Name), so the name is stable.
@SuppressWarnings({"requires-automatic", "module"})
module dev.stoker.formats.hdf5 {
    requires transitive dev.stoker.formats;
    requires io.jhdf;

    exports dev.stoker.formats.hdf5;
}
