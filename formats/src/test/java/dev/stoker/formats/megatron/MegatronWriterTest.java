package dev.stoker.formats.megatron;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** MegatronWriter writes the bytes Megatron-LM's IndexedDatasetBuilder wrote for the same input, and publishes them atomically. */
class MegatronWriterTest {
    static final List<String> NAMES = MegatronFixtures.NAMES;

    @TempDir
    Path dir;

    @ParameterizedTest
    @FieldSource("NAMES")
    void theFilesAreByteIdenticalToMegatrons(String name) throws Exception {
        MegatronFixtures.Listing in = MegatronFixtures.listing(name);
        Path prefix = dir.resolve(name);
        try (MegatronWriter out = in.modes() == null ? MegatronWriter.create(prefix, in.dtype())
                : MegatronWriter.createMultimodal(prefix, in.dtype())) {
            long[] docs = in.documentIndices();
            for (int d = 0; d + 1 < docs.length; d++) {
                int from = (int) docs[d];
                int to = (int) docs[d + 1];
                if (d % 2 == 0 || from == to) { // as the script: sequence by sequence
                    for (int s = from; s < to; s++) {
                        out.addSequence(in.sequences().get(s), in.modes() == null ? 0 : in.modes()[s]);
                    }
                    out.endDocument();
                } else { // a whole document at once
                    int[] lengths = new int[to - from];
                    int[] modes = in.modes() == null ? null : new int[to - from];
                    long[] all = new long[0];
                    for (int s = from; s < to; s++) {
                        long[] seq = in.sequences().get(s);
                        lengths[s - from] = seq.length;
                        if (modes != null) {
                            modes[s - from] = in.modes()[s];
                        }
                        all = java.util.stream.LongStream.concat(java.util.Arrays.stream(all), java.util.Arrays.stream(seq)).toArray();
                    }
                    out.addDocument(all, lengths, modes);
                }
            }
            out.commit();
        }
        Path megatron = MegatronFixtures.prefix(name);
        assertThat(Files.readAllBytes(MegatronDataset.binPath(prefix))).isEqualTo(Files.readAllBytes(MegatronDataset.binPath(megatron)));
        assertThat(Files.readAllBytes(MegatronDataset.idxPath(prefix))).isEqualTo(Files.readAllBytes(MegatronDataset.idxPath(megatron)));
        assertThat(files()).containsExactlyInAnyOrder(name + ".bin", name + ".idx");
    }

    @Test
    void nothingIsPublishedBeforeCommitAndCloseWithoutCommitLeavesNothing() throws Exception {
        Path prefix = dir.resolve("d");
        try (MegatronWriter out = MegatronWriter.create(prefix, MegatronDType.UINT16)) {
            out.addSequence(new long[] {1, 2, 3});
            out.endDocument();
            assertThat(Files.exists(MegatronDataset.idxPath(prefix))).isFalse();
            assertThat(Files.exists(MegatronDataset.binPath(prefix))).isFalse();
        }
        assertThat(files()).isEmpty();
    }

    @Test
    void aCommitReplacesAnOlderDatasetAndEndsTheLastDocument() throws Exception {
        Path prefix = dir.resolve("d");
        try (MegatronWriter out = MegatronWriter.create(prefix, MegatronDType.INT32)) {
            out.addSequence(new long[] {9});
            out.commit();
        }
        try (MegatronWriter out = MegatronWriter.create(prefix, MegatronDType.INT32)) {
            out.addSequence(new long[] {1, 2});
            out.endDocument();
            out.addSequence(new int[] {3});
            out.addSequence(new long[] {});
            out.commit();
            assertThatThrownBy(() -> out.addSequence(new long[] {4})).isInstanceOf(IllegalStateException.class);
        }
        try (MegatronDataset ds = MegatronDataset.open(prefix)) {
            assertThat(ds.size()).isEqualTo(3);
            assertThat(ds.documentCount()).isEqualTo(2);
            assertThat(ds.documentStart(1)).isEqualTo(1);
            assertThat(ds.documentEnd(1)).isEqualTo(3);
            assertThat(ds.tokens(1)).containsExactly(3);
            assertThat(ds.tokens(2)).isEmpty();
        }
        assertThat(files()).containsExactlyInAnyOrder("d.bin", "d.idx");
    }

    @Test
    void thePublishedFilesHaveThePermissionsOfAnyNewFile() throws Exception {
        Path prefix = dir.resolve("d");
        try (MegatronWriter out = MegatronWriter.create(prefix, MegatronDType.UINT8)) {
            out.addSequence(new long[] {1});
            out.commit();
        }
        var plain = Files.getPosixFilePermissions(Files.createFile(dir.resolve("plain")));
        assertThat(Files.getPosixFilePermissions(MegatronDataset.binPath(prefix))).isEqualTo(plain);
        assertThat(Files.getPosixFilePermissions(MegatronDataset.idxPath(prefix))).isEqualTo(plain);
    }

    @Test
    void aTokenOutsideTheTypeIsRefusedNamingTheSequence() throws Exception {
        try (MegatronWriter out = MegatronWriter.create(dir.resolve("d"), MegatronDType.UINT16)) {
            out.addSequence(new long[] {1});
            assertThatThrownBy(() -> out.addSequence(new long[] {5, 65536})).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("token 1 of sequence 1").hasMessageContaining("uint16");
            assertThatThrownBy(() -> out.addSequence(new long[] {-1})).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> out.addDocument(new long[] {1, 2}, new int[] {1})).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("add up to 1");
            assertThat(out.sequenceCount()).isEqualTo(1);
        }
    }

    private List<String> files() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }
}
