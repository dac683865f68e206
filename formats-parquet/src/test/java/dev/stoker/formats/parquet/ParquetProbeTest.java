package dev.stoker.formats.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.environment.Environment;
import dev.stoker.environment.Finding;
import java.util.List;
import org.junit.jupiter.api.Test;

class ParquetProbeTest {
    @Test
    void environmentFindsTheProbeAndBothCodecsWithNativeAccess() {
        // The build runs the tests with --enable-native-access=ALL-UNNAMED (stoker.jvm.flags).
        List<Finding> parquet = Environment.current().findings().stream()
                .filter(f -> f.module().equals("stoker-formats-parquet"))
                .toList();

        assertThat(parquet).hasSize(2).allSatisfy(f -> assertThat(f).isInstanceOf(Finding.Ready.class));
        assertThat(parquet).extracting(Finding::feature)
                .anySatisfy(f -> assertThat(f).contains("snappy-java"))
                .anySatisfy(f -> assertThat(f).contains("zstd-jni"));
    }
}
