package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.TensorDataset;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link ProfileSampler}: bounded, in order, and what it reads is the loader's. */
class ProfileSamplerTest {

    @Test
    void aFullSamplerThinsOutKeepingItsFirstReadingAndItsOrder() throws Exception {
        try (Arena arena = Arena.ofConfined();
             DataLoader<?> loader = DataLoader.builder(TensorDataset.of(Tensor.allocate(arena, DType.F32, Shape.of(8, 2))))
                     .batchSize(2).build()) {
            AtomicLong taken = new AtomicLong();
            ProfileSampler sampler = new ProfileSampler(loader, taken::get, Duration.ofNanos(100_000), 8);
            long first = sampler.samples().getFirst().atNanos();
            for (Batch b : loader) {
                taken.incrementAndGet();
                b.close();
            }
            while (sampler.interval().toNanos() == 100_000) { // until it has thinned out at least once
                Thread.sleep(1);
            }
            sampler.close();
            List<ProfileSampler.Sample> s = sampler.samples();

            assertThat(s.size()).isLessThanOrEqualTo(8 + 1); // the last reading, at close, may come on top of a full list
            assertThat(s.getFirst().atNanos()).isEqualTo(first);
            for (int i = 1; i < s.size(); i++) {
                assertThat(s.get(i).atNanos()).isGreaterThanOrEqualTo(s.get(i - 1).atNanos());
            }
            ProfileSampler.Sample last = s.getLast();
            assertThat(last.made()).isEqualTo(4);
            assertThat(last.taken()).isEqualTo(4);
            assertThat(last.ready()).isZero();
            assertThat(last.lentBytes()).isZero(); // every batch closed
        }
    }
}
