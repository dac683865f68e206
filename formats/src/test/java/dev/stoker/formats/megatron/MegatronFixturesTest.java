package dev.stoker.formats.megatron;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.formats.mmap.SharedArena;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Tensor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** Stoker reads every fixture Megatron-LM wrote exactly: each sequence's tokens, the documents, the modes. */
class MegatronFixturesTest {
    static final java.util.List<String> NAMES = MegatronFixtures.NAMES;

    @ParameterizedTest
    @FieldSource("NAMES")
    void everySequenceAndDocumentIsWhatMegatronWrote(String name) throws Exception {
        MegatronFixtures.Listing expected = MegatronFixtures.listing(name);
        try (MegatronDataset ds = MegatronDataset.open(MegatronFixtures.prefix(name))) {
            assertThat(ds.dtype()).isEqualTo(expected.dtype());
            assertThat(ds.size()).isEqualTo(expected.sequences().size());
            for (int i = 0; i < expected.sequences().size(); i++) {
                long[] tokens = expected.sequences().get(i);
                assertThat(ds.tokens(i)).as("sequence %d", i).containsExactly(tokens);
                assertThat(ds.sequenceLength(i)).isEqualTo(tokens.length);
                Tensor t = ds.get(i);
                assertThat(t.dtype()).isEqualTo(DType.I64);
                assertThat(t.shape().toArray()).containsExactly(tokens.length);
                assertThat(t.toLongArray()).containsExactly(tokens);
            }
            long[] docs = expected.documentIndices();
            assertThat(ds.documentCount()).isEqualTo(docs.length - 1);
            for (int d = 0; d < docs.length - 1; d++) {
                assertThat(ds.documentStart(d)).as("document %d", d).isEqualTo(docs[d]);
                assertThat(ds.documentEnd(d)).as("document %d", d).isEqualTo(docs[d + 1]);
                for (long s = docs[d]; s < docs[d + 1]; s++) {
                    assertThat(ds.documentOf(s)).as("sequence %d", s).isEqualTo(d);
                }
            }
            assertThat(ds.hasModes()).isEqualTo(expected.modes() != null);
            if (expected.modes() != null) {
                for (int i = 0; i < expected.modes().length; i++) {
                    assertThat(ds.mode(i)).as("mode of %d", i).isEqualTo(expected.modes()[i]);
                }
            } else if (ds.size() > 0) {
                assertThatThrownBy(() -> ds.mode(0)).isInstanceOf(IllegalStateException.class).hasMessageContaining(name + ".idx");
            }
        }
    }

    @ParameterizedTest
    @FieldSource("NAMES")
    void int32SamplesHoldTheSameTokensWhereTheyFit(String name) throws Exception {
        MegatronFixtures.Listing expected = MegatronFixtures.listing(name);
        try (MegatronDataset ds = MegatronDataset.open(MegatronFixtures.prefix(name))) {
            if (expected.dtype() == MegatronDType.INT64) {
                assertThatThrownBy(() -> ds.withOutput(DType.I32)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("narrow");
                return;
            }
            MegatronDataset narrow = ds.withOutput(DType.I32);
            for (int i = 0; i < ds.size(); i++) {
                Tensor t = narrow.get(i);
                assertThat(t.dtype()).isEqualTo(DType.I32);
                assertThat(t.toLongArray()).containsExactly(expected.sequences().get(i));
            }
        }
    }

    @ParameterizedTest
    @FieldSource("NAMES")
    void aSharedArenaMapsBothFiles(String name) throws Exception {
        MegatronFixtures.Listing expected = MegatronFixtures.listing(name);
        try (SharedArena group = SharedArena.create("megatron");
                MegatronDataset ds = MegatronDataset.open(MegatronFixtures.prefix(name), group)) {
            for (int i = 0; i < ds.size(); i++) {
                assertThat(ds.tokens(i)).containsExactly(expected.sequences().get(i));
            }
        }
    }

    @ParameterizedTest
    @FieldSource("NAMES")
    void widenWritesAnyPartOfASequenceIntoNativeMemory(String name) throws Exception {
        MegatronFixtures.Listing expected = MegatronFixtures.listing(name);
        try (MegatronDataset ds = MegatronDataset.open(MegatronFixtures.prefix(name));
                java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            for (int i = 0; i < ds.size(); i++) {
                long[] whole = expected.sequences().get(i);
                int from = whole.length / 3;
                int count = whole.length - from - whole.length / 4;
                java.lang.foreign.MemorySegment dst = arena.allocate(8L * count + 16);
                ds.widen(i, from, count, dst, 8);
                long[] got = new long[count];
                java.lang.foreign.MemorySegment.copy(dst, java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 8, got, 0, count);
                assertThat(got).as("sequence %d", i).containsExactly(java.util.Arrays.copyOfRange(whole, from, from + count));
            }
            if (ds.size() > 0) {
                int length = ds.sequenceLength(0);
                assertThatThrownBy(() -> ds.widen(0, length - 2, 3, arena.allocate(64), 0))
                        .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("sequence 0");
            }
        }
    }
}
