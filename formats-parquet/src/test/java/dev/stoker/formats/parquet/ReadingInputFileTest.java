package dev.stoker.formats.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hardwood reads through positional reads, not a map: a file cut short after it was opened gives a
 * short read that names the file, where a map handed to snappy-java would have raised SIGBUS in
 * native code and killed the JVM (seen in CI, from a row-group read-ahead racing a truncation).
 */
class ReadingInputFileTest {

    @TempDir
    Path dir;

    @Test
    void readsTheRangeAskedFor() throws Exception {
        Path f = dir.resolve("a.bin");
        byte[] bytes = new byte[10_000];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 7);
        }
        Files.write(f, bytes);
        try (ReadingInputFile in = new ReadingInputFile(f)) {
            in.open();
            assertThat(in.length()).isEqualTo(10_000);
            ByteBuffer b = in.readRange(4_000, 3_000);
            assertThat(b.isDirect()).as("native decompressors take it without a copy").isTrue();
            assertThat(b.remaining()).isEqualTo(3_000);
            for (int i = 0; i < 3_000; i++) {
                assertThat(b.get(i)).isEqualTo(bytes[4_000 + i]);
            }
            assertThat(in.readRange(10_000, 0).remaining()).isZero();
        }
    }

    @Test
    void aRangeOutsideTheFileIsRefused() throws Exception {
        Path f = dir.resolve("b.bin");
        Files.write(f, new byte[100]);
        try (ReadingInputFile in = new ReadingInputFile(f)) {
            in.open();
            assertThatThrownBy(() -> in.readRange(90, 20)).hasMessageContaining(f.toString())
                    .hasMessageContaining("outside the file (100 bytes)");
            assertThatThrownBy(() -> in.readRange(-1, 2)).hasMessageContaining("outside the file");
        }
    }

    @Test
    void aFileCutShortAfterItWasOpenedIsAShortReadThatNamesIt() throws Exception {
        Path f = dir.resolve("c.bin");
        Files.write(f, new byte[64 * 1024]);
        try (ReadingInputFile in = new ReadingInputFile(f)) {
            in.open();
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                ch.truncate(5_000);
            }
            assertThatThrownBy(() -> in.readRange(4_096, 40_000)).isInstanceOfSatisfying(FileCutShortException.class,
                    e -> {
                        assertThat(e.file()).isEqualTo(f);
                        assertThat(e.openedSize()).isEqualTo(64 * 1024);
                        assertThat(e.currentSize()).isEqualTo(5_000);
                        assertThat(e.getMessage()).contains("ends at byte 5000").contains("cut short");
                    });
        }
    }
}
