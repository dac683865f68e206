package dev.stoker.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The settings and the plan made from a schema, on the driver alone (no Spark job). */
class ShardPackerBuilderTest {
    @TempDir
    Path dir;

    private static final StructType SCHEMA = new StructType()
            .add("id", DataTypes.StringType).add("png", DataTypes.BinaryType)
            .add("label", DataTypes.LongType).add("meta", DataTypes.StringType);

    @Test
    void thePlanMapsExtensionsToColumnsWithTheirEncodings() {
        PackPlan plan = ShardPacker.builder(dir.toString()).key("id").field("png", "png").field("cls", "label")
                .maxSamples(7).build().plan(SCHEMA);
        assertThat(plan.outputDir()).isEqualTo(dir.toAbsolutePath().toString());
        assertThat(plan.keyIndex()).isZero();
        assertThat(plan.payloads()).containsExactly(
                new PayloadColumn("png", "png", 1, PayloadColumn.Encoding.BYTES),
                new PayloadColumn("cls", "label", 2, PayloadColumn.Encoding.DECIMAL_TEXT));
        assertThat(plan.maxSamples()).isEqualTo(7);
        assertThat(new String(plan.payloads().get(1).encode(-42L))).isEqualTo("-42");
    }

    @Test
    void fileUrisAreAcceptedAndOtherUrlsRefusedWithTheMountAdvice() {
        PackPlan plan = ShardPacker.builder(dir.toUri().toString()).key("id").build().plan(SCHEMA);
        assertThat(plan.outputDir()).isEqualTo(dir.toAbsolutePath().toString());
        assertThatThrownBy(() -> ShardPacker.builder("s3a://bucket/shards"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"s3a://bucket/shards\" is a URL")
                .hasMessageContaining("s3fs");
    }

    @Test
    void badSettingsAreRefusedWhenGiven() {
        ShardPacker.Builder b = ShardPacker.builder(dir.toString());
        assertThatThrownBy(() -> b.field(".jpg", "png")).hasMessageContaining("write jpg, not .jpg");
        b.field("jpg", "png");
        assertThatThrownBy(() -> b.field("jpg", "meta"))
                .hasMessage("extension \"jpg\" is given twice (columns \"png\" and \"meta\")");
        assertThatThrownBy(() -> b.maxSamples(0)).hasMessageContaining("must be at least 1");
        assertThatThrownBy(() -> b.maxBytes(-1)).hasMessageContaining("must be at least 1");
        assertThatThrownBy(() -> b.shardName("shard-%06d.tar")).hasMessageContaining("same name");
        assertThatThrownBy(() -> ShardPacker.builder(" ")).hasMessage("the output folder is empty");
    }

    @Test
    void aPackerKeepsTheSettingsItWasBuiltWith() {
        ShardPacker.Builder b = ShardPacker.builder(dir.toString()).key("id").field("png", "png");
        ShardPacker packer = b.build();
        b.field("txt", "meta").maxSamples(3);
        PackPlan plan = packer.plan(SCHEMA);
        assertThat(plan.payloads()).extracting(PayloadColumn::extension).containsExactly("png");
        assertThat(plan.maxSamples()).isEqualTo(Long.MAX_VALUE);
    }
}
