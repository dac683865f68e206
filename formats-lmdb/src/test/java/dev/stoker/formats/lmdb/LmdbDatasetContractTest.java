package dev.stoker.formats.lmdb;

import dev.stoker.contract.MapDatasetContract;
import java.util.Arrays;
import java.util.List;

/** The map-style reader contract, over the environment Python's lmdb wrote. */
class LmdbDatasetContractTest extends MapDatasetContract<LmdbSample> {

    @Override
    protected Opened<LmdbSample> open() {
        LmdbDataset ds = LmdbDataset.open(LmdbDatasetTest.SMALL);
        return new Opened<>(ds, ds);
    }

    @Override
    protected Object content(LmdbSample sample) {
        return List.of(sample.index(), sample.key(), Arrays.toString(sample.value()), sample.label());
    }
}
