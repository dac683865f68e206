/**
 * MosaicML Streaming (MDS) shards. zstd shards load zstd-jni's native library: on the module path
 * {@code --enable-native-access=com.github.luben.zstd_jni}.
 */
module dev.stoker.formats.mds {
    requires transitive dev.stoker.formats;
    // index.json
    requires com.fasterxml.jackson.databind;
    requires com.github.luben.zstd_jni;

    exports dev.stoker.formats.mds;

    provides dev.stoker.environment.EnvironmentProbe with dev.stoker.formats.mds.MdsProbe;
}
