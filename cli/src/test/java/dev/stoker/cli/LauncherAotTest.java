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
        Path jar = Files.writeString(tmp.resolve("stoker.jar"), "not a real jar");
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", ". scripts/aot-cache.sh; aot_flags /no/such/java \"$1\""
                + " '-Xmx1g' bench -w W3", "bash", jar.toString()).directory(root().toFile())
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
    void stokerAotZeroAndFlagsOfOnesOwnTurnItOff() throws Exception {
        assertThat(flags(Map.of("STOKER_AOT", "0"))).isEmpty();
        assertThat(flags(Map.of("STOKER_JAVA_OPTS", "-XX:AOTCache=/tmp/mine.aot"))).isEmpty();
    }
}
