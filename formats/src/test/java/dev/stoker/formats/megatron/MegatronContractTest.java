package dev.stoker.formats.megatron;

import dev.stoker.formats.contract.MappedDatasetContract;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.io.TempDir;

class MegatronContractTest extends MappedDatasetContract<Tensor> {
    @TempDir
    Path dir;
    private Path prefix;

    @Override
    protected Opened<Tensor> open() throws Exception {
        prefix = copyOf("uint16", dir);
        MegatronDataset ds = MegatronDataset.open(prefix);
        return new Opened<>(ds, ds);
    }

    /** The contract cuts the {@code .bin} short mid-epoch: a copy, not the shared fixture. */
    @Override
    protected Path mappedFile() {
        return MegatronDataset.binPath(prefix);
    }

    @Override
    protected Object content(Tensor sample) {
        return Arrays.toString(sample.toLongArray());
    }

    /** The fixture {@code name}'s {@code .idx} and {@code .bin}, copied into {@code dir}; their prefix. */
    static Path copyOf(String name, Path dir) throws IOException {
        Path from = MegatronFixtures.prefix(name);
        Path to = dir.resolve(from.getFileName());
        Files.copy(MegatronDataset.idxPath(from), MegatronDataset.idxPath(to));
        Files.copy(MegatronDataset.binPath(from), MegatronDataset.binPath(to));
        return to;
    }
}
