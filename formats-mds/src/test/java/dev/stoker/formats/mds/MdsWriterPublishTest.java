package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An MDS dataset is published whole, by {@link MdsWriter#commit()}, or not at all. */
class MdsWriterPublishTest {
    @TempDir
    Path tmp;

    private static long count(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.count();
        }
    }

    @Test
    void aSampleFailingInsideTryWithResourcesPublishesNothing() throws IOException {
        Path out = tmp.resolve("mds");
        assertThatThrownBy(() -> {
            try (MdsWriter w = MdsWriter.builder(out).column("x", "bytes").column("n", "int").sizeLimit(2000).open()) {
                for (int i = 0; i < 200; i++) {
                    if (i == 150) {
                        throw new IOException("cannot read input 150");
                    }
                    w.write(Map.of("x", new byte[100], "n", (long) i));
                }
                w.commit();
            }
        }).hasMessageContaining("input 150");
        assertThat(out.resolve("index.json")).doesNotExist();
        assertThat(count(out)).isZero();
        assertThatThrownBy(() -> MdsDataset.open(out)).hasMessageContaining("index.json");
    }

    @Test
    void aCommitAfterAFailedWriteOrAnAbortPublishesNothing() throws IOException {
        Path out = tmp.resolve("mds");
        MdsWriter w = MdsWriter.builder(out).column("x", "bytes").open();
        w.write(Map.of("x", new byte[10]));
        w.abort();
        assertThatThrownBy(w::commit).isInstanceOf(IllegalStateException.class).hasMessageContaining("nothing");
        assertThat(count(out)).isZero();
    }

    /**
     * Writers failing at random points (seeded): either the whole dataset reads back, or the folder
     * is empty; and a writer dropped without a close leaves no index.json.
     */
    @Test
    void writersFailingAtRandomPointsPublishWholeOrNothing() throws IOException {
        for (int trial = 0; trial < 40; trial++) {
            Random rnd = new Random(900 + trial);
            Path out = tmp.resolve("t" + trial);
            int n = 1 + rnd.nextInt(80);
            int failAt = rnd.nextInt(n + 3); // n: before the commit, above: no failure
            boolean dropped = rnd.nextInt(4) == 0;
            MdsWriter w = MdsWriter.builder(out).column("x", "bytes").column("n", "int")
                    .sizeLimit(500 + rnd.nextInt(3000)).compression(rnd.nextBoolean() ? null : "zstd").open();
            boolean committed = false;
            try {
                for (int i = 0; i < n; i++) {
                    if (i == failAt) {
                        throw new IllegalStateException("fail");
                    }
                    w.write(Map.of("x", new byte[rnd.nextInt(400)], "n", (long) i));
                }
                if (failAt == n) {
                    throw new IllegalStateException("fail");
                }
                w.commit();
                committed = true;
            } catch (IllegalStateException e) {
                if (!dropped) {
                    w.close();
                }
            }
            String what = "trial " + trial + ": " + n + " samples, fail at " + failAt + (dropped ? ", dropped" : "");
            if (committed) {
                try (MdsDataset ds = MdsDataset.open(out)) {
                    assertThat(ds.size()).as(what).isEqualTo(n);
                }
            } else {
                assertThat(out.resolve("index.json")).as(what).doesNotExist();
                if (!dropped) {
                    assertThat(count(out)).as(what).isZero();
                }
            }
        }
    }
}
