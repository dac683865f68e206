package dev.stoker.vision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.data.Dataset;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderException;
import dev.stoker.memory.BufferPool;
import dev.stoker.tensor.DType;
import dev.stoker.testing.SpecialFiles;
import dev.stoker.vision.decode.DecodeSession;
import dev.stoker.vision.decode.ImageDecoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Images read from files by the decoder, into its own buffer ({@link JpegDataset#ofFiles}): the
 * same batches as the same bytes given in memory, on both paths and with workers; a file that
 * cannot be read, or is empty, fails its batch naming the file.
 */
class JpegDatasetFilesTest {
    @TempDir
    Path dir;

    /** The files of {@link JpegDatasetTest#images} written to {@code dir}: file i is sample i, label i % 3. */
    private Dataset<ImageFile> files(int size) throws IOException {
        ImageFile[] files = new ImageFile[size];
        for (int i = 0; i < size; i++) {
            EncodedImage e = JpegDatasetTest.images(size, -1).get(i);
            Path p = dir.resolve("img_" + i + ".jpg");
            Files.write(p, e.bytes().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
            files[i] = new ImageFile(p, e.label());
        }
        return new Dataset<>() {
            public long size() {
                return size;
            }

            public ImageFile get(long i) {
                return files[(int) i];
            }
        };
    }

    @Test
    void filesGiveTheSameBatchesAsTheirBytes() throws IOException {
        try (ImagePipeline p = JpegDatasetTest.pipeline(); BufferPool pool = BufferPool.builder().name("files").build()) {
            JpegDataset<EncodedImage> inMemory = JpegDataset.of(JpegDatasetTest.images(23, -1), p);
            JpegDataset<ImageFile> fromFiles = JpegDataset.ofFiles(files(23), f -> f, p);
            Map<Long, String> expected;
            Map<Long, String> serial;
            Map<Long, String> workers;
            try (DataLoader<ImageSample> a = DataLoader.builder(inMemory).batchSize(4).shuffle(true).seed(5).pool(pool).build();
                 DataLoader<ImageSample> b = DataLoader.builder(fromFiles).batchSize(4).shuffle(true).seed(5).pool(pool).build();
                 DataLoader<ImageSample> c = DataLoader.builder(fromFiles).batchSize(4).shuffle(true).seed(5).pool(pool)
                         .numWorkers(2).build()) {
                expected = JpegDatasetTest.epoch(a);
                serial = JpegDatasetTest.epoch(b);
                workers = JpegDatasetTest.epoch(c);
            }
            assertThat(expected).hasSize(23);
            assertThat(serial).isEqualTo(expected);
            assertThat(workers).isEqualTo(expected);
            assertThat(pool.lentCount()).isZero();
            for (long i = 0; i < 7; i++) {
                assertThat(fromFiles.get(i).image().toFloatArray()).containsExactly(inMemory.get(i).image().toFloatArray());
                assertThat(fromFiles.get(i).label()).isEqualTo(i % 3);
            }
        }
    }

    @Test
    void aMissingOrEmptyFileFailsItsBatchNamingTheFile() throws IOException {
        Dataset<ImageFile> files = files(8);
        Path gone = files.get(5).path();
        Files.delete(gone);
        Path empty = files.get(2).path();
        Files.write(empty, new byte[0]);
        try (ImagePipeline p = JpegDatasetTest.pipeline()) {
            JpegDataset<ImageFile> ds = JpegDataset.ofFiles(files, f -> f, p, DType.F32);
            try (DataLoader<ImageSample> loader = DataLoader.builder(ds).batchSize(4).build()) {
                Iterator<Batch> it = loader.iterator();
                assertThatThrownBy(it::next).isInstanceOf(LoaderException.class)
                        .hasStackTraceContaining(empty + ": empty (0 bytes)");
            }
            assertThatThrownBy(() -> ds.get(5)).isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("cannot read " + gone);
            assertThatThrownBy(() -> JpegDataset.ofFiles(files, f -> f.path().equals(gone) ? null : f, p).get(5))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("no image file for sample 5");
        }
    }

    /**
     * A named pipe where an image was (torchvision hangs on it, in open(2)) and a link to
     * /dev/zero (which reads without end): each is refused at once naming the file, by the
     * session and through the dataset, and the loader's batch fails rather than hanging.
     */
    @Test
    void aFifoOrADeviceInPlaceOfAnImageIsRefusedNamingItAndNothingHangs() throws Exception {
        Dataset<ImageFile> files = files(8);
        Path fifo = files.get(1).path();
        Files.delete(fifo);
        SpecialFiles.fifo(fifo);
        Path zero = files.get(6).path();
        Files.delete(zero);
        SpecialFiles.linkToDevZero(zero);
        try (ImageDecoder decoder = ImageDecoder.create(); ImagePipeline p = JpegDatasetTest.pipeline()) {
            for (Path bad : List.of(fifo, zero)) {
                String kind = bad == fifo ? "is a named pipe (FIFO), not a regular file" : "is a character device, not a regular file";
                Throwable e = SpecialFiles.refused(bad, () -> {
                    try (DecodeSession s = decoder.session()) {
                        s.open(bad);
                    }
                });
                assertThat(e).isInstanceOf(UncheckedIOException.class).hasMessageContaining(bad + ": " + kind);
                JpegDataset<ImageFile> ds = JpegDataset.ofFiles(files, f -> f, p);
                assertThat(SpecialFiles.refused(bad, () -> ds.get(files.get(1).path() == bad ? 1 : 6)))
                        .hasMessageContaining(bad + ": " + kind);
            }
            JpegDataset<ImageFile> ds = JpegDataset.ofFiles(files, f -> f, p);
            Throwable e = SpecialFiles.refused(fifo, () -> {
                try (DataLoader<ImageSample> loader = DataLoader.builder(ds).batchSize(4).numWorkers(2).build()) {
                    loader.iterator().next();
                }
            });
            assertThat(e).isInstanceOf(LoaderException.class).hasStackTraceContaining(fifo + ": is a named pipe (FIFO)");
        }
        Files.delete(zero);
    }

    @Test
    void aFileReadsWhatItHoldsWhenRead() throws IOException {
        // A file that grew after it was listed: read whole, as the decoder sees it now.
        Dataset<ImageFile> files = files(2);
        byte[] other = Files.readAllBytes(files.get(1).path());
        Files.write(files.get(0).path(), other);
        try (ImagePipeline p = ImagePipeline.eval(24)) {
            JpegDataset<ImageFile> ds = JpegDataset.ofFiles(files, f -> f, p);
            assertThat(ds.get(0).image().toFloatArray()).containsExactly(ds.get(1).image().toFloatArray());
            assertThat(List.of(ds.get(0).label(), ds.get(1).label())).containsExactly(0L, 1L);
        }
    }
}
