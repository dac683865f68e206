package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which start-up cache flags the launcher gives a run (scripts/aot-cache.sh, as ./stoker sources
 * it). A run that records the cache has no Flight Recorder in JDK 25, so a run that asks for a
 * recording must never be the recording run.
 */
class LauncherAotTest {
    @TempDir
    Path tmp;

    private static Path root() {
        return RepositoryRoot.holding("scripts/aot-cache.sh");
    }

    private String flags(Map<String, String> env) throws IOException, InterruptedException {
        return flags(env, "stoker.jar", "W3");
    }

    /** The flags for {@code bench -w WORKLOAD} with the jar named {@code jarName}; both reach the script as arguments. */
    private String flags(Map<String, String> env, String jarName, String workload)
            throws IOException, InterruptedException {
        Path jar = Files.writeString(tmp.resolve(jarName), "not a real jar");
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", ". scripts/aot-cache.sh; aot_flags /no/such/java \"$1\""
                + " '-Xmx1g' bench -w \"$2\"", "bash", jar.toString(), workload).directory(root().toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().remove("STOKER_JAVA_OPTS");
        pb.environment().remove("STOKER_AOT");
        pb.environment().put("XDG_CACHE_HOME", tmp.resolve("cache").toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    @Test
    void aFirstRunRecordsTheCache() throws Exception {
        assertThat(flags(Map.of())).contains("-XX:AOTMode=record");
    }

    @Test
    void aRunAskingForAFlightRecordingIsNeverTheRecordingRun() throws Exception {
        assertThat(flags(Map.of("STOKER_JAVA_OPTS", "-XX:StartFlightRecording=filename=/tmp/x.jfr"))).isEmpty();
        assertThat(flags(Map.of("STOKER_JAVA_OPTS", "-Xmx2g -XX:FlightRecorderOptions=stackdepth=128"))).isEmpty();
    }

    @Test
    void aJarOrWorkloadNamedLikeAShellCommandIsNeverRun() throws Exception {
        Path marker = tmp.resolve("ran");
        // no slash in it, so that it can be a file's name: MARK says where a command run from it would write
        String hostile = "x $(touch $MARK) `touch $MARK`; touch $MARK";
        assertThat(flags(Map.of("MARK", marker.toString()), hostile + ".jar", hostile)).contains("-XX:AOTMode=record")
                .contains(tmp.resolve("cache").toString());
        assertThat(marker).doesNotExist();
    }

    @Test
    void stokerAotZeroAndFlagsOfOnesOwnTurnItOff() throws Exception {
        assertThat(flags(Map.of("STOKER_AOT", "0"))).isEmpty();
        assertThat(flags(Map.of("STOKER_JAVA_OPTS", "-XX:AOTCache=/tmp/mine.aot"))).isEmpty();
    }
}
