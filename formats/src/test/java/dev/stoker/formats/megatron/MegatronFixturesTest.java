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

    @org.junit.jupiter.api.Test
    void widenReadsAPartOfASequence() throws Exception {
        MegatronFixtures.Listing expected = MegatronFixtures.listing("uint16");
        try (MegatronDataset ds = MegatronDataset.open(MegatronFixtures.prefix("uint16"))) {
            long[] whole = expected.sequences().get(0);
            long[] part = new long[5];
            ds.widen(0, 3, 5, java.lang.foreign.MemorySegment.ofArray(part), 0);
            assertThat(part).containsExactly(java.util.Arrays.copyOfRange(whole, 3, 8));
            assertThatThrownBy(() -> ds.widen(0, whole.length - 2, 3, java.lang.foreign.MemorySegment.ofArray(part), 0))
                    .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("sequence 0");
        }
    }
}
