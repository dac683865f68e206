package dev.stoker.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link DataFormatException}: file, position and what are fields, and the message names all three. */
class DataFormatExceptionTest {

    @Test
    void theMessageNamesTheFileThePositionAndWhatWasWrong() {
        SplittableRandom rnd = new SplittableRandom(20);
        for (int n = 0; n < 500; n++) {
            String file = "/data/part-" + rnd.nextInt(1000) + (rnd.nextBoolean() ? ".jsonl" : ".tar");
            long at = rnd.nextLong(1L << 40);
            DataPosition position = switch (rnd.nextInt(6)) {
                case 0 -> DataPosition.byteOffset(at);
                case 1 -> DataPosition.line(at + 1);
                case 2 -> DataPosition.row(at);
                case 3 -> DataPosition.item(rnd.nextBoolean() ? "sample" : "sequence", at);
                case 4 -> DataPosition.named("key", "k" + at);
                default -> DataPosition.wholeFile();
            };
            String what = "damage " + rnd.nextInt();
            DataFormatException e = new DataFormatException(file, position, what);
            assertThat(e.source()).isEqualTo(file);
            assertThat(e.position()).isEqualTo(position);
            assertThat(e.what()).isEqualTo(what);
            assertThat(e.getMessage()).startsWith(file).endsWith(": " + what);
            if (!(position instanceof DataPosition.WholeFile)) {
                assertThat(e.getMessage()).isEqualTo(file + ", " + position + ": " + what);
            }
        }
    }

    @Test
    void positionsAreWrittenInTheirFormatsUnits() {
        assertThat(new DataFormatException("s.tar", DataPosition.byteOffset(1536), "bad checksum"))
                .hasMessage("s.tar, byte offset 1536: bad checksum");
        assertThat(new DataFormatException("a.jsonl", DataPosition.line(17), "not JSON"))
                .hasMessage("a.jsonl, line 17: not JSON");
        assertThat(new DataFormatException("t.parquet", DataPosition.row(4), "a null"))
                .hasMessage("t.parquet, row 4: a null");
        assertThat(new DataFormatException("x.bin", DataPosition.item("sequence", 9), "past the end"))
                .hasMessage("x.bin, sequence 9: past the end");
        assertThat(new DataFormatException("db", DataPosition.named("key", "img-7"), "missing"))
                .hasMessage("db, key 'img-7': missing");
        assertThat(new DataFormatException("x.npy", DataPosition.wholeFile(), "not a .npy file"))
                .hasMessage("x.npy: not a .npy file");
    }

    @Test
    void aReaderThatWritesItsMessageWholeGetsTheFileFromItsStartAndKeepsTheMessage() {
        class Legacy extends DataFormatException {
            Legacy(String message) {
                super(message, null);
            }
        }
        Legacy e = new Legacy("/d/data.h5: array 'x', chunk 3: inflates to more than 4096 bytes");
        assertThat(e).hasMessage("/d/data.h5: array 'x', chunk 3: inflates to more than 4096 bytes");
        assertThat(e.source()).isEqualTo("/d/data.h5");
        assertThat(e.position()).isInstanceOf(DataPosition.InMessage.class);
        assertThat(e.what()).isEqualTo("array 'x', chunk 3: inflates to more than 4096 bytes");
        Legacy p = new Legacy("/d/t.parquet, row group 2, row 7: a null in a filled column");
        assertThat(p.source()).isEqualTo("/d/t.parquet");
        assertThat(p.what()).isEqualTo("row group 2, row 7: a null in a filled column");
    }

    @Test
    void theCauseIsKept() {
        Exception cause = new java.io.EOFException("ended");
        assertThat(new DataFormatException("f", DataPosition.byteOffset(3), "cut short", cause)).hasCause(cause);
    }
}
