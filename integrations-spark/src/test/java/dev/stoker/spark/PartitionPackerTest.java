package dev.stoker.spark;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The extension rules checked on each payload column (keys follow SampleKeys.problem, tested in
 * formats; the packing itself is in ShardPackerTest, on Spark).
 */
class PartitionPackerTest {
    @Test
    void extensionsAreChecked() {
        assertThat(PayloadColumn.badExtension("jpg")).isNull();
        assertThat(PayloadColumn.badExtension("seg.png")).isNull();
        assertThat(PayloadColumn.badExtension("")).contains("empty");
        assertThat(PayloadColumn.badExtension(".jpg")).contains("write jpg, not .jpg");
        assertThat(PayloadColumn.badExtension("a/b")).contains("'/'");
    }
}
