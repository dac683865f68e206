package dev.stoker.formats.parquet;

import dev.stoker.environment.EnvironmentProbe;
import dev.stoker.environment.Finding;
import dev.stoker.environment.NativeAccess;
import java.util.ArrayList;
import java.util.List;

/**
 * The Parquet module's part of {@link dev.stoker.environment.Environment}: Hardwood decompresses
 * snappy pages with snappy-java and zstd pages with zstd-jni, both of which load their library
 * through JNI. A service implementation; not called directly.
 */
public final class ParquetProbe implements EnvironmentProbe {
    private static final String MODULE = "stoker-formats-parquet";

    /** Made by {@link java.util.ServiceLoader}. */
    public ParquetProbe() {
    }

    @Override
    public List<Finding> probe() {
        List<Finding> found = new ArrayList<>(2);
        found.add(codec("org.xerial.snappy.Snappy", "snappy-java, for snappy pages as Hugging Face writes them"));
        found.add(codec("com.github.luben.zstd.Zstd", "zstd-jni, for zstd pages"));
        return found;
    }

    /**
     * The codec's class is looked up by name, not initialized (that would load its library), and
     * not named in module-info: snappy-java has no module name of its own, only its file's.
     */
    private static Finding codec(String className, String uses) {
        try {
            Class<?> type = Class.forName(className, false, ParquetProbe.class.getClassLoader());
            return NativeAccess.finding(MODULE, type, uses);
        } catch (ClassNotFoundException e) {
            return new Finding.Missing(MODULE, uses, "the library is not on the path, so pages in that codec cannot be read",
                    "add its jar (" + className + ") to the class or module path");
        }
    }
}
