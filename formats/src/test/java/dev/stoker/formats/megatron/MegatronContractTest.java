package dev.stoker.formats.megatron;

import dev.stoker.formats.contract.MapDatasetContract;
import dev.stoker.tensor.Tensor;
import java.util.Arrays;

class MegatronContractTest extends MapDatasetContract<Tensor> {
    @Override
    protected Opened<Tensor> open() throws Exception {
        MegatronDataset ds = MegatronDataset.open(MegatronFixtures.prefix("uint16"));
        return new Opened<>(ds, ds);
    }

    @Override
    protected Object content(Tensor sample) {
        return Arrays.toString(sample.toLongArray());
    }
}
