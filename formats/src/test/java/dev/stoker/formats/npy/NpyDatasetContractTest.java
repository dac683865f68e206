package dev.stoker.formats.npy;

import dev.stoker.formats.contract.MappedDatasetContract;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

class NpyDatasetContractTest extends MappedDatasetContract<Tensor> {

    @TempDir
    Path dir;
    private Path file;

    @Override
    protected Path mappedFile() {
        return file;
    }

    @Override
    protected Opened<Tensor> open() throws Exception {
        file = Files.copy(NpyFixturesTest.folder().resolve("one_d_u2.npy"), dir.resolve("one_d_u2.npy"));
        NpyFile ten = NpyFile.open(file);
        return new Opened<>(ten.rows(), ten);
    }

    @Override
    protected Object content(Tensor sample) {
        return List.of(sample.dtype(), sample.shape(), Arrays.toString(sample.segment().toArray(ValueLayout.JAVA_BYTE)));
    }
}
