package dev.stoker.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.environment.Finding;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryProbeTest {

    @Test
    void readsTheSettingInBracketsAsTheOneInForce(@TempDir Path dir) throws IOException {
        Path setting = dir.resolve("enabled");
        Files.writeString(setting, "always [madvise] never\n");
        assertThat(MemoryProbe.hugePages(setting)).isInstanceOf(Finding.Ready.class);

        Files.writeString(setting, "always madvise [never]\n");
        assertThat(MemoryProbe.hugePages(setting)).isInstanceOfSatisfying(Finding.Missing.class,
                m -> assertThat(m.remedy()).contains("echo madvise > " + setting));
    }

    @Test
    void anUnreadableSettingIsMissingNotAnError(@TempDir Path dir) {
        assertThat(MemoryProbe.hugePages(dir.resolve("absent"))).isInstanceOfSatisfying(Finding.Missing.class,
                m -> assertThat(m.consequence()).contains("could not be read"));
    }
}
