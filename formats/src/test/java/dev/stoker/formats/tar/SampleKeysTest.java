package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SampleKeysTest {

    @Test
    void keysFollowWebDatasetsNamingRule() {
        assertThat(SampleKeys.problem("s00001")).isNull();
        assertThat(SampleKeys.problem("n01440764/img_0001")).isNull();
        assertThat(SampleKeys.problem("v1.2/img_0001")).isNull();
        assertThat(SampleKeys.problem("caf\u00e9")).isNull();
        assertThat(SampleKeys.problem(null)).isEqualTo("the key is null");
        assertThat(SampleKeys.problem("")).isEqualTo("the key is empty");
        assertThat(SampleKeys.problem("dir/")).contains("ends in '/'");
        assertThat(SampleKeys.problem("a\0b")).contains("NUL");
        assertThat(SampleKeys.problem("dir/img.0001")).contains("contains a dot");
        assertThat(SampleKeys.problem(".hidden")).contains("contains a dot");
    }

    @Test
    void theShardWriterRefusesAKeyThatWouldNotReadBackSayingWhy(@TempDir Path dir) {
        try (ShardWriter w = ShardWriter.builder(dir.resolve("s-%06d.tar").toString()).build()) {
            assertThatThrownBy(() -> w.write("img.0001", Map.of("jpg", new byte[] {1})))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("sample key \"img.0001\" cannot be read back: a key must not be empty")
                    .hasMessageContaining("contains a dot");
            assertThatThrownBy(() -> w.write("a\0b", Map.of("jpg", new byte[] {1})))
                    .hasMessageContaining("NUL");
            w.commit();
        }
    }
}
