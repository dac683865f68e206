package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.formats.jsonl.JsonlDataset;
import dev.stoker.formats.megatron.MegatronDType;
import dev.stoker.formats.megatron.MegatronWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stoker inspect} on Parquet (a Hugging Face split), JSONL with and without its index, and Megatron datasets. */
class LanguageModelInspectionTest {
    /** pyarrow's fixtures in the Parquet module (make_fixtures.py): 1000 rows, train split in two shards. */
    static final Path HF = Path.of("..", "formats-parquet", "src", "test", "resources", "parquet", "hf");

    @TempDir
    Path dir;

    @Test
    void aHuggingFaceSplitShowsRowsColumnsLengthsAndFirstRows() {
        BenchCommandTest.Run r = BenchCommandTest.run("inspect", "--split", "train", "-n", "2", HF.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("Parquet split 'train', 1,000 rows in 9 row groups, 2 files",
                "tokens:int32_list?", "lengths of 'tokens' in values: 909", "0: id=0 ", "1: id=1 ", "window=[1, 2, 3, 4]");
        assertThat(r.err()).doesNotContain("SIMD");   // Hardwood's logging kept out of the report
        r = BenchCommandTest.run("inspect", "--split", "validation", HF.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("no split 'validation'");
    }

    @Test
    void aMegatronDatasetShowsSequencesDocumentsAndFirstTokens() throws Exception {
        Path prefix = dir.resolve("wiki_text_document");
        try (MegatronWriter w = MegatronWriter.create(prefix, MegatronDType.UINT16)) {
            w.addSequence(new long[] {5, 6, 7});
            w.endDocument();
            w.addSequence(new long[] {8});
            w.addSequence(new long[] {9, 10});
            w.endDocument();
            w.commit();
        }
        for (String name : new String[] {prefix.toString(), prefix + ".idx", prefix + ".bin"}) {
            BenchCommandTest.Run r = BenchCommandTest.run("inspect", name);
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out()).contains("Megatron indexed dataset", "3 sequences in 2 documents, 6 uint16 tokens",
                    "sequence lengths in tokens: 3, mean 2.0, min 1, max 3", "0 (document 0): [5, 6, 7]",
                    "2 (document 1): [9, 10]");
        }
        Files.write(prefix.resolveSibling("wiki_text_document.bin"), new byte[3]);
        BenchCommandTest.Run r = BenchCommandTest.run("inspect", prefix.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("wiki_text_document");
    }

    @Test
    void jsonlShowsLinesLengthsAndWhetherItsIndexMatches() throws Exception {
        Path file = dir.resolve("train.jsonl");
        Files.writeString(file, "{\"text\": \"a\"}\n{\"text\": \"" + "b".repeat(100) + "\"}\n{\"text\": \"c\"}\n");
        BenchCommandTest.Run r = BenchCommandTest.run("inspect", "-n", "1", file.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("JSONL, 3 lines", "no line index", "line lengths in bytes: 3, mean 46.0, min 13, max 112",
                "0: \"{\"text\": \"a\"}\"");
        assertThat(JsonlDataset.sidecarOf(file)).doesNotExist();   // inspecting writes nothing
        JsonlDataset.index(file, JsonlDataset.sidecarOf(file));
        r = BenchCommandTest.run("inspect", file.toString());
        assertThat(r.out()).contains("JSONL, 3 lines", "line index train.jsonl.lines", "matches the file");
        Files.writeString(file, "{\"text\": \"changed\"}\n");
        r = BenchCommandTest.run("inspect", file.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("train.jsonl");
    }
}
