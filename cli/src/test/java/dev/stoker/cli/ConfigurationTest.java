package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigurationTest {

    @Test
    void namesFollowTheTutorialAndThePeerBenchmark() {
        Configuration c = Configuration.of(4, true, true);

        assertThat(c.name()).isEqualTo("nw=4 persistent batched");
        assertThat(c.peerName()).isEqualTo("nw=4,pf=2,persistent,batched(__getitems__)");
        assertThat(Configuration.of(0, false, false).peerName()).isEqualTo("nw=0");
    }

    @Test
    void isNamedIgnoresCaseAndSeparators() {
        Configuration c = Configuration.of(0, false, true);

        assertThat(c.isNamed("nw=0 batched")).isTrue();
        assertThat(c.isNamed(" NW=0,Batched ")).isTrue();
        assertThat(c.isNamed("nw=0,batched(__getitems__)")).isTrue();
        assertThat(c.isNamed("nw=0")).isFalse();
    }

    @Test
    void persistentWorkersNeedWorkers() {
        assertThatThrownBy(() -> Configuration.of(0, true, false)).hasMessageContaining("persistent");
        assertThatThrownBy(() -> Configuration.of(-1, false, false)).hasMessageContaining("numWorkers");
    }

    @Test
    void w1HasTheTutorialsFourteenConfigurationsAndTheFillRows() {
        assertThat(new W1Synthetic().configurations()).extracting(Configuration::name).containsExactly(
                "nw=0", "nw=0 batched", "nw=0 fill", "nw=0 batched fill", "nw=0 io=32", "nw=0 fill io=32",
                "nw=2", "nw=2 persistent", "nw=2 batched", "nw=2 persistent batched", "nw=2 persistent batched fill",
                "nw=2 persistent io=32", "nw=2 persistent fill io=32",
                "nw=4", "nw=4 persistent", "nw=4 batched", "nw=4 persistent batched", "nw=4 persistent batched fill",
                "nw=4 persistent io=32", "nw=4 persistent fill io=32",
                "nw=8", "nw=8 persistent", "nw=8 batched", "nw=8 persistent batched", "nw=8 persistent batched fill",
                "nw=8 persistent io=32", "nw=8 persistent fill io=32");
    }

    @Test
    void autotuneKeepsThePathAndNamesItsBudget() {
        Configuration c = Configuration.of(2, false, false).withFill().withAutotune(1L << 30, 4);

        assertThat(c.numWorkers()).isEqualTo(4); // the lanes
        assertThat(c.autotuneBytes()).isEqualTo(1L << 30);
        assertThat(c.fill()).isTrue();
        assertThat(c.name()).isEqualTo("nw=4 fill autotune=1.00GiB");
        assertThat(c.withWorkers(3).autotuneBytes()).isEqualTo(1L << 30);
        assertThat(Configuration.of(2, false, false).autotuneBytes()).isZero();
    }

    @Test
    void fillIsNamedAndHasNoPeer() {
        Configuration c = Configuration.of(0, false, true).withFill();

        assertThat(c.fill()).isTrue();
        assertThat(c.name()).isEqualTo("nw=0 batched fill");
        assertThat(c.peerName()).isEqualTo("nw=0,batched(__getitems__),fill");
        assertThat(c.isNamed("nw=0 batched fill")).isTrue();
        assertThat(Configuration.of(0, false, true).isNamed("nw=0 batched fill")).isFalse();
        assertThat(Configuration.of(0, false, true).fill()).isFalse();
    }

    @Test
    void rowsTakeEachWorkerCountInTurnWithEveryPath() {
        assertThat(Configuration.rows(List.of(0, 2), Configuration.GENERAL, Configuration.FILL,
                Configuration.BATCHED_FILL)).extracting(Configuration::name).containsExactly(
                "nw=0", "nw=0 fill", "nw=0 batched fill", "nw=2", "nw=2 fill", "nw=2 batched fill");
        assertThat(Configuration.rows(List.of(4), Configuration.GENERAL.withRaw()).getFirst())
                .isEqualTo(new Configuration(4, Configuration.DEFAULT_PREFETCH, false, false, false, 0, true));
    }
}
