package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MainTest {

    @Test
    void helpMentionsBenchAndExamples() {
        BenchCommandTest.Run r = BenchCommandTest.run("--help");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("Usage: stoker", "bench", "Examples:", "stoker bench --quick");
    }

    @Test
    void noCommandPrintsTheHelp() {
        BenchCommandTest.Run r = BenchCommandTest.run();

        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("Usage: stoker", "bench");
    }

    @Test
    void anUnknownCommandIsAUsageError() {
        BenchCommandTest.Run r = BenchCommandTest.run("benchh");

        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("benchh");
    }
}
