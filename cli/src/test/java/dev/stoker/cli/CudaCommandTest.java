package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.stoker.cuda.Cuda;
import org.junit.jupiter.api.Test;

class CudaCommandTest {

    @Test
    void saysWhatTheCudaProbeFound() {
        assumeTrue(Cuda.isAvailable(), "no CUDA device here");
        BenchCommandTest.Run r = BenchCommandTest.run("cuda");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains(Cuda.status());
    }

    @Test
    void withoutADeviceItFailsAndSaysWhy() {
        assumeFalse(Cuda.isAvailable(), "a CUDA device is present");
        BenchCommandTest.Run r = BenchCommandTest.run("cuda");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains(Cuda.status(), "no usable CUDA device");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void benchWithoutADeviceFailsWithAReason() {
        // on a GPU machine --bench runs the real measurements instead (scripts/device-run.sh)
        assumeFalse(Cuda.isAvailable(), "a CUDA device is present");
        BenchCommandTest.Run r = BenchCommandTest.run("cuda", "--bench");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("needs a CUDA device");
    }

    @Test
    void theLoopWithoutADeviceFailsWithAReason() {
        assumeFalse(Cuda.isAvailable(), "a CUDA device is present");
        BenchCommandTest.Run r = BenchCommandTest.run("cuda", "--loop", "--step-ms", "10,5");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("--loop needs a CUDA device");
    }

    @Test
    void theHelpShowsTheLoopsSettings() {
        assertThat(BenchCommandTest.run("cuda", "--help").out()).contains("--loop", "--step-ms", "--workers");
    }

    @Test
    void theTopLevelHelpListsIt() {
        assertThat(BenchCommandTest.run("--help").out()).contains("cuda");
    }
}
