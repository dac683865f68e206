package dev.stoker.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ShardNamesTest {
    @Test
    void namesHoldThePartitionThenTheShard() {
        ShardNames names = new ShardNames("train-%05d-%06d.tar");
        assertThat(names.name(3, 0)).isEqualTo("train-00003-000000.tar");
        assertThat(names.name(3, 12)).isEqualTo("train-00003-000012.tar");
        assertThat(names.name(123456, 1)).isEqualTo("train-123456-000001.tar");
        assertThat(new ShardNames("%2$04d-of-part-%1$d.tar").name(7, 2)).isEqualTo("0002-of-part-7.tar");
    }

    @Test
    void patternsThatCouldGiveTwoShardsOneNameAreRefused() {
        assertThatThrownBy(() -> new ShardNames("shard-%06d.tar"))
                .hasMessageContaining("gives two shards the same name");
        assertThatThrownBy(() -> new ShardNames("shard-%d%d.tar"))
                .hasMessageContaining("gives two shards the same name (\"shard-111.tar\")");
        assertThatThrownBy(() -> new ShardNames("shard-%s-%f.tar"))
                .hasMessageContaining("is not a format with two numbers");
        assertThatThrownBy(() -> new ShardNames("sub/shard-%05d-%06d.tar")).hasMessageContaining("no '/'");
    }
}
