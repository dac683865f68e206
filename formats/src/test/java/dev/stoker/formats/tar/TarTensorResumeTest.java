package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.MixedStreamingDataset;
import dev.stoker.data.StreamingDataset;
import dev.stoker.formats.npy.NpyWriter;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderState;
import dev.stoker.loader.ResumeRuns;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A loader over numeric tar samples stopped mid-epoch and restored in a new loader delivers the
 * batches an uninterrupted run would; without a shuffle buffer the rest of the epoch can also be
 * dealt out to another number of workers, as the shards themselves can.
 */
class TarTensorResumeTest {
    private static final int EPOCHS = 2;

    @TempDir
    Path dir;

    @BeforeEach
    void writeShards() {
        try (ShardWriter w = ShardWriter.builder(dir.resolve("T-%02d.tar").toString()).maxSamples(13).build()) {
            for (int i = 0; i < 100; i++) {
                Map<String, byte[]> fields = new LinkedHashMap<>();
                fields.put("npy", npyF32(i, i + 0.5f, -i));
                fields.put("cls", (" " + i + "\n").getBytes(StandardCharsets.US_ASCII));
                w.write(String.format("%04d", i), fields);
            }
            w.commit();
        }
    }

    private static byte[] npyF32(float... values) {
        byte[] header = NpyWriter.header(DType.F32, Shape.of(values.length));
        ByteBuffer b = ByteBuffer.allocate(header.length + 4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(header);
        for (float v : values) {
            b.putFloat(v);
        }
        return b.array();
    }

    private static TarTensorStream tensors(StreamingDataset<TarSample> source) {
        return TarTensorStream.builder(source).npy("x", "npy", DType.F32, Shape.of(3)).integer("label", "cls").build();
    }

    private TarShardDataset.Builder shards() {
        return TarShardDataset.builder(dir.resolve("T-{00..07}.tar").toString());
    }

    private static DataLoader<TarSample> loader(TarTensorStream ds, int workers) {
        return DataLoader.builder(ds).batchSize(8).numWorkers(workers).seed(11).build();
    }

    /** A batch as its epoch, position, labels and values: the values are checked against the labels too. */
    private static String describe(Batch b) {
        long[] labels = b.tensor("label").toLongArray();
        Tensor x = b.tensor("x");
        for (int r = 0; r < labels.length; r++) {
            long i = labels[r];
            assertThat(x.select(r).toFloatArray()).containsExactly(i, i + 0.5f, -i);
        }
        return b.epoch() + "/" + b.index() + "=" + Arrays.toString(labels);
    }

    @Test
    void aResumedEpochGoesOnAsIfUninterrupted() {
        Random random = new Random(9);
        for (int trial = 0; trial < 16; trial++) {
            int workers = random.nextInt(3);
            TarTensorStream ds = tensors(shards().shuffleShards(random.nextBoolean())
                    .shuffleBuffer(random.nextBoolean() ? 20 : 0).build());
            List<String> expected;
            try (DataLoader<TarSample> loader = loader(ds, workers)) {
                expected = ResumeRuns.uninterrupted(loader, EPOCHS, TarTensorResumeTest::describe);
            }
            int stop = random.nextInt(expected.size() + 1);
            List<String> seen = new ArrayList<>();
            LoaderState state;
            try (DataLoader<TarSample> loader = loader(ds, workers)) {
                state = ResumeRuns.stopAfter(loader, EPOCHS, stop, TarTensorResumeTest::describe, seen);
            }
            DataLoader<TarSample> resumed = loader(ds, workers);
            try (resumed) {
                ResumeRuns.resume(resumed, state, EPOCHS, TarTensorResumeTest::describe, seen, () -> {});
            }
            assertThat(seen).as("trial %d, %d workers, stop after %d", trial, workers, stop)
                    .containsExactlyElementsOf(expected);
            assertThat(resumed.pool().stats().lentBytes()).isZero();
        }
    }

    @Test
    void aMixtureResumesThroughItsOwnSkip() {
        TarTensorStream ds = tensors(MixedStreamingDataset.of(List.of(
                TarShardDataset.builder(dir.resolve("T-{00..03}.tar").toString()).build(),
                TarShardDataset.builder(dir.resolve("T-{04..07}.tar").toString()).build()), 0.3, 0.7));
        List<String> expected;
        try (DataLoader<TarSample> loader = loader(ds, 2)) {
            expected = ResumeRuns.uninterrupted(loader, EPOCHS, TarTensorResumeTest::describe);
        }
        List<String> seen = new ArrayList<>();
        LoaderState state;
        try (DataLoader<TarSample> loader = loader(ds, 2)) {
            state = ResumeRuns.stopAfter(loader, EPOCHS, expected.size() / 3, TarTensorResumeTest::describe, seen);
        }
        try (DataLoader<TarSample> loader = loader(ds, 2)) {
            ResumeRuns.resume(loader, state, EPOCHS, TarTensorResumeTest::describe, seen, () -> {});
        }
        assertThat(seen).containsExactlyElementsOf(expected);
    }

    @Test
    void theRestOfAnEpochIsDealtOutToAnotherNumberOfWorkers() {
        Random random = new Random(21);
        for (int trial = 0; trial < 12; trial++) {
            TarTensorStream ds = tensors(shards().shuffleShards(random.nextBoolean()).build());
            int before = random.nextInt(3);
            int after = (before + 1 + random.nextInt(2)) % 3;
            List<Long> labels = new ArrayList<>();
            LoaderState state;
            try (DataLoader<TarSample> loader = loader(ds, before)) {
                state = ResumeRuns.stopAfter(loader, 1, random.nextInt(8), b -> collect(b, labels), new ArrayList<>());
            }
            try (DataLoader<TarSample> loader = loader(ds, after)) {
                ResumeRuns.resume(loader, state, 1, b -> collect(b, labels), new ArrayList<>(), () -> {});
            }
            assertThat(labels).as("trial %d: %d -> %d workers", trial, before, after)
                    .hasSize(100).doesNotHaveDuplicates();
        }
    }

    private static String collect(Batch b, List<Long> labels) {
        String d = describe(b);
        for (long l : b.tensor("label").toLongArray()) {
            labels.add(l);
        }
        return d;
    }

    @Test
    void aSourceThatCannotReshardIsNamedWhenAskedTo() {
        MixedStreamingDataset<TarSample> mix = MixedStreamingDataset.of(List.of(shards().build()), 1.0);
        TarTensorStream ds = tensors(mix);
        LoaderState state;
        try (DataLoader<TarSample> loader = loader(ds, 1)) {
            loader.iterator().next().close();
            state = loader.state();
        }
        try (DataLoader<TarSample> other = loader(ds, 2)) {
            assertThatThrownBy(() -> other.restore(state)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cannot resume on another layout")
                    .hasMessageContaining("its source, " + mix.name() + ", deals its samples out");
        }
    }
}
