/**
 * Parquet files (Hugging Face's datasets among them) through Hardwood. snappy and zstd pages are
 * decompressed by snappy-java and zstd-jni, which load their libraries through JNI: on the module
 * path {@code --enable-native-access=snappy.java,com.github.luben.zstd_jni} (snappy-java's name is
 * its file's, so it is not required here; Hardwood, an automatic module, reads it).
 */
// Its dependency names itself (Automatic-Module-Name), so the name is stable.
@SuppressWarnings("requires-automatic")
module dev.stoker.formats.parquet {
    requires transitive dev.stoker.formats;
    requires dev.hardwood.core;

    exports dev.stoker.formats.parquet;

    provides dev.stoker.environment.EnvironmentProbe with dev.stoker.formats.parquet.ParquetProbe;
}
