package dev.stoker.vision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderException;
import dev.stoker.loader.LoaderState;
import dev.stoker.loader.SamplePolicy;
import dev.stoker.random.Seeds;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.transform.SampleRandom;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Streamed images filled into the batch: what the pipeline makes of each, for any worker count, and resumable. */
class JpegStreamTest {
    private static final List<String> FILES = List.of("rgb420_q90.jpg", "odd_37x23.jpg", "grayscale.jpg", "cmyk.jpg",
            "png_named.jpg", "progressive.jpg", "rgba_png_named.jpg");

    /** Sample i (worker w of W streams i = w, w + W, ...) is FILES[i % 7] under key "k<i>", label i % 3. */
    private static final class Images implements StreamingDataset<Long> {
        final int size;
        final int bad;
        final AtomicLong skipped = new AtomicLong();

        Images(int size, int bad) {
            this.size = size;
            this.bad = bad;
        }

        @Override
        public SampleStream<Long> open(WorkerContext ctx) {
            var it = LongStream.iterate(ctx.globalWorkerId(), i -> i < size, i -> i + ctx.globalWorkers()).iterator();
            return new SampleStream<>() {
                public boolean hasNext() {
                    return it.hasNext();
                }

                public Long next() {
                    return it.nextLong();
                }

                @Override
                public long skip(long n) {
                    long done = 0;
                    while (done < n && it.hasNext()) {
                        it.nextLong();
                        done++;
                    }
                    skipped.addAndGet(done);
                    return done;
                }

                public void close() {}
            };
        }

        EncodedImage encoded(long i) {
            byte[] bytes = i == bad ? new byte[0] : Fixtures.bytes("decode/" + FILES.get((int) (i % FILES.size())));
            return EncodedImage.of(bytes, i % 3, "k" + i);
        }
    }

    private static List<String> rows(DataLoader<?> loader) {
        List<String> out = new ArrayList<>();
        for (Batch b : loader) {
            try (b) {
                Tensor images = b.tensor("image");
                assertThat(images.dtype()).isEqualTo(DType.F32);
                for (int j = 0; j < images.shape().dim(0); j++) {
                    out.add(Arrays.toString(images.select(j).toFloatArray()) + " label " + b.tensor("label").getLong(j));
                }
            }
        }
        return out;
    }

    @Test
    void eachImageIsWhatThePipelineMakesOfItWhicheverWorkerReadsIt() {
        try (ImagePipeline p = JpegDatasetTest.pipeline()) {
            Images source = new Images(17, -1);
            JpegStream<Long> images = JpegStream.of(source, source::encoded, p);
            List<String> expected = new ArrayList<>();
            for (long i = 0; i < 17; i++) { // the documented key: (seed, epoch, TRANSFORM_STREAM, hash(key))
                EncodedImage e = source.encoded(i);
                Shape shape = p.outputShape();
                Tensor t = new Tensor(MemorySegment.ofArray(new float[(int) shape.elements()]), DType.F32, shape);
                p.apply(e.bytes(), e.key(), t, SampleRandom.ofKey(Seeds.mix(9, 0, SampleRandom.TRANSFORM_STREAM,
                        JpegStream.hash(e.key()))));
                expected.add(Arrays.toString(t.toFloatArray()) + " label " + i % 3);
            }
            for (int workers : new int[] {0, 1, 3}) {
                try (DataLoader<EncodedImage> loader = DataLoader.builder(images).batchSize(4).numWorkers(workers)
                        .seed(9).build()) {
                    assertThat(rows(loader)).as("%d workers", workers).containsExactlyInAnyOrderElementsOf(expected);
                    assertThat(loader.pool().lentBytes()).isZero();
                }
            }
        }
    }

    @Test
    void aBadImageFailsItsBatchOrIsSkipped() {
        try (ImagePipeline p = JpegDatasetTest.pipeline()) {
            Images source = new Images(10, 6);
            JpegStream<Long> images = JpegStream.of(source, source::encoded, p);
            try (DataLoader<EncodedImage> loader = DataLoader.builder(images).batchSize(4)
                    .onBadSample(SamplePolicy.SKIP).build()) {
                assertThat(rows(loader)).hasSize(9);
                assertThat(loader.stats().skippedSamples()).isEqualTo(1);
            }
            try (DataLoader<EncodedImage> loader = DataLoader.builder(images).batchSize(4).build()) {
                var it = loader.iterator();
                it.next().close();
                try {
                    it.next().close();
                    throw new AssertionError("batch 1 holds the empty image k6");
                } catch (LoaderException e) {
                    assertThat(e).hasStackTraceContaining("k6");
                }
            }
        }
    }

    @Test
    void aResumedStreamSkipsThroughTheSource() {
        try (ImagePipeline p = ImagePipeline.eval(24)) {
            Images source = new Images(20, -1);
            JpegStream<Long> images = JpegStream.of(source, source::encoded, p);
            List<String> whole;
            try (DataLoader<EncodedImage> loader = DataLoader.builder(images).batchSize(3).numWorkers(2).build()) {
                whole = rows(loader);
            }
            List<String> seen = new ArrayList<>();
            LoaderState state;
            try (DataLoader<EncodedImage> loader = DataLoader.builder(images).batchSize(3).numWorkers(2).build()) {
                var it = loader.iterator();
                for (int k = 0; k < 3; k++) {
                    try (Batch b = it.next()) {
                        for (int j = 0; j < b.tensor("label").shape().dim(0); j++) {
                            seen.add(Arrays.toString(b.tensor("image").select(j).toFloatArray()) + " label "
                                    + b.tensor("label").getLong(j));
                        }
                    }
                }
                state = loader.state();
            }
            source.skipped.set(0);
            try (DataLoader<EncodedImage> loader = DataLoader.builder(images).batchSize(3).numWorkers(2).build()) {
                loader.restore(state);
                seen.addAll(rows(loader));
            }
            assertThat(seen).containsExactlyElementsOf(whole);
            assertThat(source.skipped.get()).as("9 samples delivered, moved past by the source's skip").isEqualTo(9);
        }
    }
}
