package dev.stoker.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BytesTest {

    @Test
    void formatsWithDecimalUnits() {
        assertThat(Bytes.format(0)).isEqualTo("0 B");
        assertThat(Bytes.format(999)).isEqualTo("999 B");
        assertThat(Bytes.format(1000)).isEqualTo("1.0 kB");
        assertThat(Bytes.format(19_267_584)).isEqualTo("19.3 MB");
        assertThat(Bytes.format(1L << 30)).isEqualTo("1.1 GB");
        assertThat(Bytes.format(Long.MAX_VALUE)).endsWith(" PB");
    }
}
