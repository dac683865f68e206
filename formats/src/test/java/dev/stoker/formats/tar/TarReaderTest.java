package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TarReaderTest {
    static final String LONG = "nested/" + "d".repeat(60) + "/sample_with_a_very_long_name_" + "x".repeat(90)
            + ".seg.png";

    @Test
    void readsUstarWrittenByPythonSkippingTheDirectory() {
        Map<String, String> m = Fixtures.members(Fixtures.tar("ustar.tar"));

        assertThat(m.keySet()).containsExactly("000000.jpg", "000000.cls", "000001.jpg", "000001.cls",
                "000001.json", "000002.txt", "000002.cls");
        assertThat(m.get("000000.cls")).isEqualTo("3");
        assertThat(m.get("000001.jpg")).hasSize(768);
        assertThat(m.get("000002.txt")).isEmpty();
    }

    @Test
    void readsPaxLongAndNonAsciiNames() {
        Map<String, String> m = Fixtures.members(Fixtures.tar("pax.tar"));

        assertThat(m).containsEntry(LONG, "long-pax").containsEntry("caf\u00e9.txt", "accent")
                .containsEntry("000000.cls", "3");
    }

    @Test
    void readsGnuLongNamesFromPythonAndFromGnuTar() {
        assertThat(Fixtures.members(Fixtures.tar("gnu.tar"))).containsEntry(LONG, "long-gnu")
                .containsEntry("000009.cls", "9");
        Map<String, String> gnutar = Fixtures.members(Fixtures.tar("gnutar.tar"));
        assertThat(gnutar).containsEntry("./" + LONG, "long-gnutar").containsEntry("./000001.cls", "7");
        assertThat(gnutar.keySet()).noneMatch(n -> n.endsWith("/"));
    }

    @Test
    void memberDataIsASliceOfTheMapWithOffsets() {
        try (Arena arena = Arena.ofConfined(); TarReader r = TarReader.open(Fixtures.tar("ustar.tar"), arena)) {
            TarMember first = r.next();
            assertThat(first.name()).isEqualTo("000000.jpg");
            assertThat(first.headerOffset()).isEqualTo(512); // after the directory's header
            assertThat(first.dataOffset()).isEqualTo(1024);
            assertThat(first.data().isNative()).isTrue(); // mapped, not copied to the heap
        }
    }

    @Test
    void aStreamReadsTheSameMembersAsTheMap() throws Exception {
        for (String name : List.of("ustar.tar", "pax.tar", "gnu.tar", "gnutar.tar")) {
            Path p = Fixtures.tar(name);
            byte[] bytes = Files.readAllBytes(p);
            List<String> streamed = new ArrayList<>();
            try (TarReader r = TarReader.open(name, new ByteArrayInputStream(bytes), -1)) {
                r.forEachRemaining(m -> streamed.add(m.name() + "=" + m.size()));
            }
            List<String> mapped = new ArrayList<>();
            Fixtures.members(p).forEach((k, v) -> mapped.add(k + "=" + v.length()));
            assertThat(streamed).as(name).isEqualTo(mapped);
        }
    }

    @Test
    void truncatedDataNamesTheShardAndOffset() {
        Path p = Fixtures.tar("truncated.tar");
        assertThatThrownBy(() -> Fixtures.members(p))
                .isInstanceOf(TarException.class)
                .hasMessageContaining(p.toString())
                .hasMessageContaining("byte offset 2560")
                .hasMessageContaining("claims 768 bytes but only 300 are left")
                .hasMessageContaining("truncated");
    }

    @Test
    void truncatedHeaderIsAnError() {
        assertThatThrownBy(() -> Fixtures.members(Fixtures.tar("truncated_header.tar")))
                .isInstanceOf(TarException.class)
                .hasMessageContaining("byte offset 1536")
                .hasMessageContaining("header block");
    }

    @Test
    void badChecksumIsAnError() {
        assertThatThrownBy(() -> Fixtures.members(Fixtures.tar("bad_checksum.tar")))
                .isInstanceOf(TarException.class)
                .hasMessageContaining("bad_checksum.tar, byte offset 512")
                .hasMessageContaining("checksum");
    }

    @Test
    void aHugeSizeFieldIsCheckedBeforeUse() {
        assertThatThrownBy(() -> Fixtures.members(Fixtures.tar("huge_size.tar")))
                .isInstanceOf(TarException.class)
                .hasMessageContaining("byte offset 512")
                .hasMessageContaining("claims 4611686018427387904 bytes");
        // streamed without a known length, the size is not allocated up front either
        assertThatThrownBy(() -> {
            try (TarReader r = TarReader.open("huge", Files.newInputStream(Fixtures.tar("huge_size.tar")), -1)) {
                r.forEachRemaining(m -> { });
            }
        }).isInstanceOf(TarException.class).hasMessageContaining("too large to read from a stream");
    }

    @Test
    void anEmptyFileHasNoMembers() throws Exception {
        Path empty = Files.createTempFile("empty", ".tar");
        try {
            assertThat(Fixtures.members(empty)).isEmpty();
        } finally {
            Files.delete(empty);
        }
    }

    @Test
    void garbageIsNotATar() throws Exception {
        Path junk = Files.createTempFile("junk", ".tar");
        try {
            Files.write(junk, "hello, this is not a tar archive\n".repeat(40).getBytes());
            assertThatThrownBy(() -> Fixtures.members(junk)).isInstanceOf(TarException.class)
                    .hasMessageContaining("byte offset 0");
        } finally {
            Files.delete(junk);
        }
    }
}
