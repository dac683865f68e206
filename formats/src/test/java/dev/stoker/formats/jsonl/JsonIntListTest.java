package dev.stoker.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonIntListTest {
    private static int[] ids(String line) throws Exception {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        return JsonField.intList(b, b.length, "input_ids");
    }

    @Test
    void anArrayOfIntegersIsRead() throws Exception {
        assertThat(ids("{\"input_ids\": [1, 2, 3]}")).containsExactly(1, 2, 3);
        assertThat(ids("{\"input_ids\":[]}")).isEmpty();
        assertThat(ids("{\"a\": [1.5], \"input_ids\": [ -7 ,0,2147483647, -2147483648 ] , \"b\": \"x\"}"))
                .containsExactly(-7, 0, Integer.MAX_VALUE, Integer.MIN_VALUE);
        assertThat(ids("{\"text\": \"no ids\"}")).isNull();
        assertThat(ids("{\"input_ids\": [1], \"input_ids\": [2, 3]}")).containsExactly(2, 3);
    }

    @Test
    void whatPythonsJsonDumpsWritesReadsBack() throws Exception {
        SplittableRandom r = new SplittableRandom(3);
        for (int trial = 0; trial < 200; trial++) {
            int[] v = r.ints(r.nextInt(300), -100_000, 100_000).toArray();
            String line = "{\"input_ids\": " + Arrays.toString(v) + ", \"len\": " + v.length + "}";
            assertThat(ids(line)).containsExactly(v);
        }
    }

    @Test
    void otherValuesAreNotTokenLists() {
        for (String v : new String[] {"[1.0]", "[1e3]", "[2147483648]", "[-2147483649]", "[\"1\"]", "[[1]]", "5",
                "\"1 2\"", "[1, null]", "{}"}) {
            assertThatThrownBy(() -> ids("{\"input_ids\": " + v + "}")).as(v).isInstanceOf(JsonField.NotAString.class)
                    .hasMessageContaining("not a list of int32 integers");
        }
        for (String v : new String[] {"[01]", "[1,]", "[1 2]", "[-]", "[1"}) {
            assertThatThrownBy(() -> ids("{\"input_ids\": " + v + "}")).as(v).isInstanceOf(JsonField.Bad.class)
                    .hasMessageContaining("column");
        }
    }

    /**
     * The word-at-a-time digit scan against a byte loop, over random words: digits, the bytes next
     * to them ('/' and ':'), separators, and bytes with the high bit set.
     */
    @Test
    void theWordScanFindsTheSameDigitsAsAByteLoop() {
        SplittableRandom r = new SplittableRandom(11);
        byte[] alphabet = "0123456789/:, ]-\u00ff\u0080".getBytes(StandardCharsets.ISO_8859_1);
        for (int trial = 0; trial < 200_000; trial++) {
            byte[] w = new byte[8];
            for (int i = 0; i < 8; i++) {
                w[i] = r.nextInt(4) == 0 ? (byte) r.nextInt(256) : alphabet[r.nextInt(alphabet.length)];
            }
            int run = 0;
            while (run < 8 && w[run] >= '0' && w[run] <= '9') {
                run++;
            }
            long word = java.nio.ByteBuffer.wrap(w).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
            assertThat(JsonField.digitRun(word)).as(Arrays.toString(w)).isEqualTo(run);
            if (run > 0 && run < 8) {
                assertThat(JsonField.digitValue(word, run)).as(Arrays.toString(w))
                        .isEqualTo(Long.parseLong(new String(w, 0, run, StandardCharsets.ISO_8859_1)));
            }
        }
    }

    /**
     * Random arrays of number-like elements, separators and whitespace: the list is read exactly
     * when the array is one of int32 integers by JSON's grammar (a regular expression decides
     * here), and refused otherwise; never a wrong list.
     */
    @Test
    void randomArraysAreReadExactlyWhenTheyAreIntegerArrays() {
        java.util.regex.Pattern valid = java.util.regex.Pattern.compile(
                "\\[[ \t\r\n]*(-?(0|[1-9][0-9]*)[ \t\r\n]*(,[ \t\r\n]*-?(0|[1-9][0-9]*)[ \t\r\n]*)*)?\\]");
        String[] elements = {"0", "7", "42", "31999", "100000", "1234567", "12345678", "2147483647", "2147483648",
                "-5", "-2147483648", "-2147483649", "01", "00", "1.5", "1e3", "-", "99999999999", "\"x\""};
        String[] separators = {", ", ",", " ,", ",  ", ",\t", " , ", ",\n", " "};
        SplittableRandom r = new SplittableRandom(5);
        for (int trial = 0; trial < 20_000; trial++) {
            StringBuilder array = new StringBuilder(r.nextInt(3) == 0 ? "[ " : "[");
            int n = r.nextInt(12);
            List<Long> values = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (i > 0) {
                    array.append(r.nextInt(5) == 0 ? separators[r.nextInt(separators.length)] : ", ");
                }
                String e = r.nextInt(3) == 0 ? elements[r.nextInt(elements.length)]
                        : String.valueOf(r.nextInt(r.nextBoolean() ? 32000 : Integer.MAX_VALUE));
                array.append(e);
                try {
                    values.add(Long.parseLong(e));
                } catch (NumberFormatException notANumber) {
                    values.add(Long.MAX_VALUE);
                }
            }
            array.append(r.nextInt(4) == 0 ? " ]" : "]");
            String a = array.toString();
            boolean ints = valid.matcher(a).matches()
                    && values.stream().allMatch(v -> v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE);
            String line = "{\"input_ids\": " + a + "}";
            if (ints) {
                int[] expected = values.stream().mapToInt(Long::intValue).toArray();
                assertThat(call(line)).as(line).isEqualTo(expected);
            } else {
                assertThat(call(line)).as(line).isInstanceOfAny(JsonField.Bad.class, JsonField.NotAString.class);
            }
        }
    }

    private static Object call(String line) {
        try {
            return ids(line);
        } catch (Exception e) {
            return e;
        }
    }

    /** A line is read into each thread's kept array: a short line after a long one reads only its own bytes. */
    @Test
    void aShortLineAfterALongOneReadsOnlyItsOwnBytes(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sft.jsonl");
        Files.writeString(file, "{\"input_ids\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}\n{\"input_ids\": [7]}\r\n"
                + "{\"input_ids\": [8]");
        try (JsonlDataset<int[]> ds = JsonlDataset.intListField(file, "input_ids");
             JsonlDataset<byte[]> raw = JsonlDataset.lines(file)) {
            for (int round = 0; round < 2; round++) {
                assertThat(ds.get(0)).hasSize(12);
                assertThat(ds.get(1)).containsExactly(7);
                assertThatThrownBy(() -> ds.get(2)).isInstanceOf(JsonlLineException.class).hasMessageContaining("line 3");
                assertThat(raw.get(0)).hasSize(54);
                assertThat(new String(raw.get(1), StandardCharsets.UTF_8)).isEqualTo("{\"input_ids\": [7]}");
                assertThat(raw.bytes(1)).isEqualTo(raw.get(1));
            }
        }
    }

    @Test
    void aDatasetReadsTokenListsByLineAndNamesABadOne(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sft.jsonl");
        Files.writeString(file, "{\"input_ids\": [5, 6]}\n{\"input_ids\": [7]}\n{\"input_ids\": [\"x\"]}\n");
        try (JsonlDataset<int[]> ds = JsonlDataset.intListField(file, "input_ids")) {
            assertThat(ds.size()).isEqualTo(3);
            assertThat(ds.get(0)).containsExactly(5, 6);
            assertThat(ds.get(1)).containsExactly(7);
            assertThatThrownBy(() -> ds.get(2)).isInstanceOf(JsonlLineException.class)
                    .hasMessageContaining("sft.jsonl").hasMessageContaining("line 3")
                    .hasMessageContaining("not a list of int32 integers");
        }
    }
}
