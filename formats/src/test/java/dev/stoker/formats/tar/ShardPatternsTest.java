package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShardPatternsTest {

    @Test
    void numericRangesKeepTheirPadding() {
        assertThat(ShardPatterns.expand("shard-{000000..000003}.tar")).containsExactly(
                "shard-000000.tar", "shard-000001.tar", "shard-000002.tar", "shard-000003.tar");
        assertThat(ShardPatterns.expand("s{8..11}")).containsExactly("s8", "s9", "s10", "s11");
        assertThat(ShardPatterns.expand("s{3..1}")).containsExactly("s3", "s2", "s1");
    }

    @Test
    void listsNestingAndSeveralGroups() {
        assertThat(ShardPatterns.expand("{train,val}-{0..1}.tar"))
                .containsExactly("train-0.tar", "train-1.tar", "val-0.tar", "val-1.tar");
        assertThat(ShardPatterns.expand("a{b,c{1..2}}d")).containsExactly("abd", "ac1d", "ac2d");
        assertThat(ShardPatterns.expand("http://host/x-{00..01}.tar"))
                .containsExactly("http://host/x-00.tar", "http://host/x-01.tar");
        assertThat(ShardPatterns.expand("plain.tar")).containsExactly("plain.tar");
        assertThat(ShardPatterns.expandAll(List.of("a{1..2}", "b"))).containsExactly("a1", "a2", "b");
    }

    @Test
    void malformedPatternsSayWhy() {
        assertThatThrownBy(() -> ShardPatterns.expand("s-{0..3.tar")).hasMessageContaining("without its '}'");
        assertThatThrownBy(() -> ShardPatterns.expand("s-0..3}.tar")).hasMessageContaining("without its '{'");
        assertThatThrownBy(() -> ShardPatterns.expand("s-{a..c}")).hasMessageContaining("FIRST..LAST");
        assertThatThrownBy(() -> ShardPatterns.expand("s-{0..99999999999}")).hasMessageContaining("more than");
    }
}
