package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.stoker.formats.remote.RemoteFile;
import dev.stoker.formats.remote.RemoteSettings;
import dev.stoker.formats.remote.RemoteFileException;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Shards read from a shell command's output ({@code pipe:}), whole, failing, stalling, closed early. */
class PipeShardsTest {
    private static final WorkerContext ONE = new WorkerContext(0, 1, 0, 1, 0, 0);

    @TempDir
    Path dir;

    private List<Fixtures.Sample> samples;

    @BeforeEach
    void writeShards() {
        samples = Fixtures.randomSamples(new Random(5), 60);
        try (ShardWriter w = ShardWriter.builder(dir.resolve("p-%d.tar").toString()).maxSamples(20).build()) {
            samples.forEach(s -> w.write(s.key(), s.fields()));
            w.commit();
        }
    }

    private List<TarSample> readAll(TarShardDataset ds) {
        List<TarSample> got = new ArrayList<>();
        try (SampleStream<TarSample> s = ds.open(ONE)) {
            s.forEachRemaining(got::add);
        }
        return got;
    }

    @Test
    void aCommandsOutputReadsAsTheShardItWrites() {
        TarShardDataset ds = TarShardDataset.builder("pipe:cat '" + dir + "'/p-{0..2}.tar").readAhead(4096).build();
        assertThat(ds.shards()).hasSize(3).allMatch(s -> s.startsWith("pipe:cat "));
        List<TarSample> got = readAll(ds);
        assertThat(got).hasSize(60);
        for (int i = 0; i < 60; i++) {
            assertThat(samples.get(i).sameAs(got.get(i))).as("sample %d", i).isTrue();
        }
        assertThat(got.getFirst().url()).isEqualTo("pipe:cat '" + dir + "'/p-0.tar");
    }

    @Test
    void aCommandThatFailsBeforeWritingNamesItsStatusAndError() {
        String location = "pipe:cat '" + dir + "/missing.tar'";
        assertThatThrownBy(() -> readAll(TarShardDataset.builder(List.of(location)).build()))
                .isInstanceOf(TarException.class)
                .hasMessageContaining(location)
                .hasMessageContaining("exited with status 1")
                .hasMessageContaining("No such file or directory");
    }

    @Test
    void aCommandThatFailsAfterAWholeShardStillFailsIt() {
        // tar output with its end marker, then a failure: the status is read after the end marker
        String location = "pipe:cat '" + dir + "/p-0.tar'; echo 'upload quota exceeded' >&2; exit 3";
        List<TarSample> got = new ArrayList<>();
        assertThatThrownBy(() -> {
            try (SampleStream<TarSample> s = TarShardDataset.builder(List.of(location)).build().open(ONE)) {
                s.forEachRemaining(got::add);
            }
        }).isInstanceOf(TarException.class)
                .hasMessageContaining("exited with status 3")
                .hasMessageContaining("upload quota exceeded");
        // The last sample is complete only when the end marker is read, which is where the status
        // is: the samples before the failure arrive, in order.
        assertThat(got.size()).isBetween(19, 20);
        for (int i = 0; i < got.size(); i++) {
            assertThat(samples.get(i).sameAs(got.get(i))).as("sample %d", i).isTrue();
        }
    }

    @Test
    void aCommandCutShortIsATruncatedShard() throws Exception {
        String location = "pipe:head -c 5000 '" + dir + "/p-0.tar'";
        assertThatThrownBy(() -> readAll(TarShardDataset.builder(List.of(location)).build()))
                .isInstanceOf(TarException.class)
                .hasMessageContaining(location)
                .hasMessageContaining("truncated");
        assertThat(Files.size(dir.resolve("p-0.tar"))).isGreaterThan(5000);
    }

    @Test
    void aStalledCommandFailsTheShardAfterTheReadTimeout() {
        String location = "pipe:head -c 5000 '" + dir + "/p-0.tar'; sleep 30";
        TarShardDataset ds = TarShardDataset.builder(List.of(location)).readTimeout(Duration.ofMillis(300)).build();
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> { // a hang guard, not a speed check
            assertThatThrownBy(() -> readAll(ds))
                    .isInstanceOf(TarException.class)
                    .hasMessageContaining(location)
                    .hasStackTraceContaining("the command stalled");
        });
    }

    @Test
    void closingAShardEarlyEndsTheCommandAndWhatItStarted() throws Exception {
        Path pidFile = dir.resolve("sleeper.pid");
        String location = "pipe:sleep 60 & echo $! > '" + pidFile + "'; cat '" + dir + "/p-0.tar'; wait";
        try (TarReader r = ShardSources.open(RemoteFile.at(location),
                RemoteSettings.defaults().withReadAhead(4096).withStallTimeout(Duration.ofSeconds(30)))) {
            assertThat(r.hasNext()).isTrue();
            r.next();
        }
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> { // a hang guard, not a speed check
            while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                Thread.sleep(20);
            }
        });
    }

    @Test
    void anEmptyCommandIsRefusedByName() {
        assertThatThrownBy(() -> RemoteFile.at("pipe:  "))
                .isInstanceOf(RemoteFileException.class).hasMessageContaining("no command");
    }

    @Test
    void commandShardsAreStreamedAndNotRandomAccess() {
        assertThat(ShardSources.isStreamed("pipe:cat x.tar")).isTrue();
        assertThat(ShardSources.isStreamed("https://host/x.tar")).isTrue();
        assertThat(ShardSources.isStreamed(dir.resolve("p-0.tar").toString())).isFalse();
        assertThatThrownBy(() -> IndexedTarDataset.open(List.of("pipe:cat x.tar"), IndexedTarDataset.MissingIndex.BUILD))
                .hasMessageContaining("is a stream");
    }

    @Test
    void aLoaderReadsCommandShardsWithWorkers() {
        TarShardDataset ds = TarShardDataset.builder("pipe:cat '" + dir + "'/p-{0..2}.tar").build();
        Set<String> keys = new HashSet<>();
        try (DataLoader<TarSample> loader = DataLoader.builder(ds).batchSize(8).numWorkers(2)
                .collate((batch, memory) -> batch.stream().map(TarSample::key).toList()).build()) {
            for (Batch b : loader) {
                try (b) {
                    @SuppressWarnings("unchecked")
                    List<String> k = (List<String>) b.data();
                    keys.addAll(k);
                }
            }
        }
        assertThat(keys).hasSize(60);
    }
}
