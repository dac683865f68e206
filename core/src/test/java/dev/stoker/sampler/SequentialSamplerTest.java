package dev.stoker.sampler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import org.junit.jupiter.api.Test;

class SequentialSamplerTest {

    @Test
    void yieldsZeroToNMinusOneEveryEpoch() {
        SequentialSampler s = new SequentialSampler(5);
        assertThat(s.size()).isEqualTo(5);
        assertThat(Drain.epoch(s, 0)).containsExactly(0, 1, 2, 3, 4);
        assertThat(Drain.epoch(s, 9)).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void emptyDatasetYieldsNothing() {
        assertThat(Drain.epoch(new SequentialSampler(0), 0)).isEmpty();
    }

    @Test
    void worksBeyondIntRange() {
        PrimitiveIterator.OfLong it = new SequentialSampler(3_000_000_000L).iterator(0);
        assertThat(Drain.take(it, 3)).containsExactly(0, 1, 2);
    }

    @Test
    void exhaustedIteratorThrows() {
        PrimitiveIterator.OfLong it = new SequentialSampler(1).iterator(0);
        it.nextLong();
        assertThat(it.hasNext()).isFalse();
        assertThatThrownBy(it::nextLong).isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void rejectsNegativeSize() {
        assertThatThrownBy(() -> new SequentialSampler(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("size must be >= 0, got -1");
    }
}
