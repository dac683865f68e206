package dev.stoker.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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
