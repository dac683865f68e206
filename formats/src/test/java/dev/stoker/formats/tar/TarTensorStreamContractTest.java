package dev.stoker.formats.tar;

import dev.stoker.contract.FillableStreamContract;
import dev.stoker.contract.StreamDatasetContract;
import org.junit.jupiter.api.Nested;

/** Tensor fields of tar shards written by Python: the streaming contract and the fill contract. */
class TarTensorStreamContractTest {
    static TarTensorStream tensors() {
        return TensorShards.fields(TarShardDataset.builder(TensorShards.good()).build()).build();
    }

    @Nested
    class Stream extends StreamDatasetContract<TarSample> {
        @Override
        protected Opened<TarSample> open() {
            return Opened.of(tensors());
        }

        @Override
        protected Object content(TarSample s) {
            return TarContent.of(s);
        }
    }

    @Nested
    class Fill extends FillableStreamContract<TarSample> {
        @Override
        protected Opened<TarSample> open() {
            return Opened.of(tensors());
        }
    }
}
