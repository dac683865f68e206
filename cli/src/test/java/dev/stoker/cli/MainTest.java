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

    @Test
    void versionSaysTheVersionTheJvmAndWhatEachModuleFound() {
        BenchCommandTest.Run r = BenchCommandTest.run("--version");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).startsWith("stoker ").contains("(commit ", "JVM: ", "What this JVM and machine give Stoker:",
                "stoker-core", "stoker-vision", "stoker-cuda", "Vector API", "libwebp", "native access");
    }
}
