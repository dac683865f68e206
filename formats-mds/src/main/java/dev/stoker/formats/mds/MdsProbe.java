package dev.stoker.formats.mds;

import dev.stoker.environment.EnvironmentProbe;
import dev.stoker.environment.Finding;
import dev.stoker.environment.NativeAccess;
import java.util.List;

/**
 * The MDS module's part of {@link dev.stoker.environment.Environment}: zstd shards are
 * decompressed by zstd-jni, which loads its library through JNI. A service implementation; not
 * called directly.
 */
public final class MdsProbe implements EnvironmentProbe {
    /** Made by {@link java.util.ServiceLoader}. */
    public MdsProbe() {
    }

    @Override
    public List<Finding> probe() {
        // A class literal does not initialize the class, so this loads no library.
        return List.of(NativeAccess.finding("stoker-formats-mds", com.github.luben.zstd.Zstd.class, "zstd-jni, for zstd shards"));
    }
}
