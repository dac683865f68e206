package dev.stoker.formats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;
import dev.stoker.formats.jsonl.JsonlDataset;
import dev.stoker.formats.jsonl.JsonlLineException;
import dev.stoker.formats.megatron.MegatronDataset;
import dev.stoker.formats.megatron.MegatronFormatException;
import dev.stoker.formats.npy.NpyFile;
import dev.stoker.formats.npy.NpyFormatException;
import dev.stoker.formats.tar.TarException;
import dev.stoker.formats.tar.TarReader;
import dev.stoker.formats.tokens.TokenFile;
import dev.stoker.formats.tokens.TokenFileException;
import dev.stoker.formats.tokens.TokenType;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every reader of this module reports bad data as a {@link DataFormatException} whose fields name
 * the file and the position, as its message does: seeded damage to files the real tools wrote.
 */
class BadDataErrorsTest {
    @TempDir
    Path dir;

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(BadDataErrorsTest.class.getResource("/" + name).toURI());
    }

    /** {@code e} is bad data about {@code file}, with a position, and its message names both. */
    private static void located(Throwable e, Path file, String what) {
        assertThat(e).as(what).isInstanceOf(DataFormatException.class);
        DataFormatException d = (DataFormatException) e;
        assertThat(d.source()).as(what).isEqualTo(file.toString());
        assertThat(d.position()).as(what).isNotNull();
        assertThat(d.getMessage()).as(what).contains(file.toString()).contains(d.what());
        if (!(d.position() instanceof DataPosition.InMessage || d.position() instanceof DataPosition.WholeFile)) {
            assertThat(d.getMessage()).as(what).contains(d.position().toString());
        }
    }

    @Test
    void aDamagedTarShardIsATarExceptionAtAByteOffset() throws Exception {
        byte[] good = Files.readAllBytes(resource("tar/pax.tar"));
        SplittableRandom rnd = new SplittableRandom(2001);
        int refused = 0;
        for (int n = 0; n < 200; n++) {
            byte[] bad = good.clone();
            for (int k = 1 + rnd.nextInt(3); k > 0; k--) { // damage the headers: the first blocks and a cut
                bad[rnd.nextInt(Math.min(bad.length, 2048))] = (byte) rnd.nextInt(256);
            }
            if (rnd.nextInt(4) == 0) {
                bad = java.util.Arrays.copyOf(bad, rnd.nextInt(bad.length));
            }
            Path file = Files.write(dir.resolve("case-" + n + ".tar"), bad);
            Throwable e = catchThrowable(() -> {
                try (Arena arena = Arena.ofConfined(); TarReader tar = TarReader.open(file, arena)) {
                    while (tar.hasNext()) {
                        tar.next();
                    }
                }
            });
            if (e != null) {
                refused++;
                located(e, file, "case " + n);
                assertThat(e).isInstanceOf(TarException.class);
                assertThat(((TarException) e).position()).isEqualTo(DataPosition.byteOffset(((TarException) e).offset()));
            }
        }
        assertThat(refused).as("damage that was found").isGreaterThan(50);
    }

    @Test
    void aBadJsonlLineIsAJsonlLineExceptionAtItsLine() throws IOException {
        SplittableRandom rnd = new SplittableRandom(2002);
        String[] breaks = {"{\"text\": ", "[1, 2]", "{\"text\": \"x\"", "{\"other\": 1}", "{\"text\": \"\\q\"}", "nope"};
        for (int n = 0; n < 60; n++) {
            int lines = 1 + rnd.nextInt(20);
            int bad = rnd.nextInt(lines);
            List<String> text = new ArrayList<>();
            for (int i = 0; i < lines; i++) {
                text.add(i == bad ? breaks[rnd.nextInt(breaks.length)] : "{\"text\": \"line " + i + "\"}");
            }
            Path file = Files.write(dir.resolve("case-" + n + ".jsonl"), text, StandardCharsets.UTF_8);
            try (JsonlDataset<String> ds = JsonlDataset.field(file, dir.resolve("case-" + n + ".idx"), "text")) {
                for (int i = 0; i < lines; i++) {
                    final int line = i;
                    Throwable e = catchThrowable(() -> ds.get(line));
                    if (i != bad) {
                        assertThat(e).as("case %d line %d", n, i).isNull();
                        continue;
                    }
                    located(e, file, "case " + n);
                    assertThat(e).isInstanceOf(JsonlLineException.class);
                    assertThat(((DataFormatException) e).position()).isEqualTo(DataPosition.line(bad + 1));
                }
            }
        }
    }

    @Test
    void everyCorruptNpyFileIsAnUncheckedNpyFormatExceptionNamingIt() throws Exception {
        List<Path> corrupt;
        try (Stream<Path> s = Files.list(resource("npy/corrupt_magic.npy").getParent())) {
            corrupt = s.filter(p -> p.getFileName().toString().startsWith("corrupt_")
                    && p.getFileName().toString().endsWith(".npy")).sorted().toList();
        }
        assertThat(corrupt).hasSizeGreaterThan(10);
        for (Path file : corrupt) {
            Throwable e = catchThrowable(() -> NpyFile.open(file).close());
            assertThat(e).as(file.toString()).isInstanceOf(NpyFormatException.class).isInstanceOf(RuntimeException.class);
            located(e, file, file.toString());
        }
    }

    @Test
    void aDamagedMegatronIndexIsAMegatronFormatExceptionNamingIt() throws Exception {
        byte[] idx = Files.readAllBytes(resource("megatron/int32.idx"));
        byte[] bin = Files.readAllBytes(resource("megatron/int32.bin"));
        SplittableRandom rnd = new SplittableRandom(2003);
        int refused = 0;
        for (int n = 0; n < 100; n++) {
            byte[] bad = idx.clone();
            int at = 9 + 8 + 1 + rnd.nextInt(bad.length - 18); // past the magic and version: the counts and tables
            bad[at] = (byte) (bad[at] ^ (1 << rnd.nextInt(8)));
            Path prefix = dir.resolve("case-" + n);
            Files.write(Path.of(prefix + ".idx"), bad);
            Files.write(Path.of(prefix + ".bin"), bin);
            Throwable e = catchThrowable(() -> MegatronDataset.open(prefix).close());
            if (e != null) {
                refused++;
                assertThat(e).as("case " + n).isInstanceOf(MegatronFormatException.class);
                located(e, Path.of(prefix + ".idx"), "case " + n);
            }
        }
        assertThat(refused).as("damage that was found").isGreaterThan(10);
    }

    @Test
    void aTokenFileOfAPartTokenIsATokenFileExceptionAboutTheWholeFile() throws IOException {
        Path file = Files.write(dir.resolve("odd.u16"), new byte[] {1, 0, 2, 0, 3});
        Throwable e = catchThrowable(() -> TokenFile.open(file, TokenType.U16).close());
        assertThat(e).isInstanceOf(TokenFileException.class);
        located(e, file, "odd");
        assertThat(((DataFormatException) e).position()).isEqualTo(DataPosition.wholeFile());
    }
}
