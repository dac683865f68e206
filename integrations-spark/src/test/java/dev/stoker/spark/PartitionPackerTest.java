package dev.stoker.spark;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The member-name rules checked on each row (the packing itself is in ShardPackerTest, on Spark). */
class PartitionPackerTest {
    @Test
    void keysFollowWebDatasetsNamingRule() {
        assertThat(PartitionPacker.badKey("s00001")).isNull();
        assertThat(PartitionPacker.badKey("n01440764/img_0001")).isNull();
        assertThat(PartitionPacker.badKey("v1.2/img_0001")).isNull();
        assertThat(PartitionPacker.badKey("caf\u00e9")).isNull();
        assertThat(PartitionPacker.badKey(null)).isEqualTo("the key is null");
        assertThat(PartitionPacker.badKey("")).isEqualTo("the key is empty");
        assertThat(PartitionPacker.badKey("dir/")).contains("ends in '/'");
        assertThat(PartitionPacker.badKey("a\0b")).contains("NUL");
        assertThat(PartitionPacker.badKey("dir/img.0001")).contains("contains a dot");
        assertThat(PartitionPacker.badKey(".hidden")).contains("contains a dot");
    }

    @Test
    void extensionsAreChecked() {
        assertThat(PayloadColumn.badExtension("jpg")).isNull();
        assertThat(PayloadColumn.badExtension("seg.png")).isNull();
        assertThat(PayloadColumn.badExtension("")).contains("empty");
        assertThat(PayloadColumn.badExtension(".jpg")).contains("write jpg, not .jpg");
        assertThat(PayloadColumn.badExtension("a/b")).contains("'/'");
    }
}
