/**
 * Stoker's batches as DJL NDArrays, without a copy, and a loader as a DJL dataset. DJL's jars name
 * themselves ({@code ai.djl.api}, {@code ai.djl.pytorch_engine}).
 */
// Their jars name themselves (Automatic-Module-Name), so the names are stable.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.stoker.djl {
    requires transitive dev.stoker.core;
    // DJL's NDArray, NDManager, Dataset and Batch are in this module's API
    requires transitive ai.djl.api;

    exports dev.stoker.djl;
}
