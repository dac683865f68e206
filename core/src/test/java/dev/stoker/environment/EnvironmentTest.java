package dev.stoker.environment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.memory.MemoryProbe;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class EnvironmentTest {

    @Test
    void findsCoresProbeThroughTheServiceLoader() {
        Environment env = Environment.current();

        assertThat(env.findings()).extracting(Finding::module).contains("stoker-core");
        // The build runs tests with --enable-native-access=ALL-UNNAMED.
        assertThat(env.findings()).filteredOn(f -> f.feature().startsWith("native access"))
                .allMatch(Finding.Ready.class::isInstance);
        assertThat(env.report()).contains("ok", "stoker-core", "native access");
    }

    @Test
    void reportsWhatIsMissingWithWhatItCostsAndTheRemedy() {
        Environment env = new Environment(List.of(
                new Finding.Ready("stoker-core", "a", "found"),
                new Finding.Missing("stoker-vision", "libjpeg-turbo", "slower", "install it")));

        assertThat(env.missing()).extracting(Finding::feature).containsExactly("libjpeg-turbo");
        assertThat(env.report()).containsSubsequence("ok", "stoker-core", "a: found",
                "missing", "stoker-vision", "libjpeg-turbo: slower", "-> install it");
    }

    /**
     * Without the flag, the probe says so and gives the flag, and does not itself make the call the
     * JVM would warn about.
     */
    @Test
    void withoutNativeAccessSaysWhichFlagAndPrintsNoWarningItself() throws IOException, InterruptedException {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), PrintEnvironment.class.getName())
                .redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("missing", "native access", "start the JVM with --enable-native-access=ALL-UNNAMED");
        assertThat(out).doesNotContain("WARNING");
    }

    /** The child JVM of the native-access test. */
    public static final class PrintEnvironment {
        public static void main(String[] args) {
            System.out.print(Environment.current().report());
            System.out.println(new MemoryProbe().probe().size() + " core findings");
        }
    }
}
