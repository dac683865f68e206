package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dataset read from a remote (Streaming's {@code remote=}, here a {@code pipe:} command) reads
 * as the same dataset opened where it lies, fetches each file once into the local directory, and
 * names the location it cannot fetch.
 */
class MdsRemoteTest {
    @TempDir
    Path dir;

    @Test
    void aRemoteDatasetReadsAsTheLocalOneAndIsFetchedOnce() throws IOException {
        for (String set : new String[] {"scalars_zstd", "scalars", "split"}) {
            Path server = MdsFixtures.copy(set, dir.resolve("server-" + set));
            String split = set.equals("split") ? "val" : null;
            Path local = dir.resolve("local-" + set);
            MdsOptions remote = MdsOptions.defaults().split(split).remote("pipe:cat " + server + "/{}")
                    .verifyHashes(!set.equals("split")); // the split fixture lists no hashes
            try (MdsDataset there = MdsDataset.open(server, MdsOptions.defaults().split(split));
                 MdsDataset here = MdsDataset.open(local, remote)) {
                assertSameSamples(set, there, here);
            }
            deleteTree(server); // every file needed is local now
            try (MdsDataset again = MdsDataset.open(local, remote);
                 MdsDataset reference = MdsDataset.open(MdsFixtures.copy(set, dir.resolve("ref-" + set)),
                         MdsOptions.defaults().split(split))) {
                assertSameSamples(set, reference, again);
            }
        }
    }

    @Test
    void aFileThatCannotBeFetchedIsNamed() {
        Path nowhere = dir.resolve("nowhere");
        assertThatThrownBy(() -> MdsDataset.open(dir.resolve("local"),
                MdsOptions.defaults().remote("pipe:cat " + nowhere + "/{}")))
                .isInstanceOf(MdsFormatException.class)
                .hasMessageContaining("pipe:cat " + nowhere + "/index.json")
                .hasMessageContaining("cannot fetch it");
    }

    private static void assertSameSamples(String set, MdsDataset expected, MdsDataset actual) {
        assertThat(actual.size()).as(set).isEqualTo(expected.size()).isPositive();
        assertThat(actual.columns()).isEqualTo(expected.columns());
        for (long i = 0; i < expected.size(); i++) {
            MdsSample want = expected.get(i);
            MdsSample got = actual.get(i);
            for (String c : expected.columns()) {
                assertThat(got.bytes(c)).as("%s sample %d column %s", set, i, c).isEqualTo(want.bytes(c));
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
