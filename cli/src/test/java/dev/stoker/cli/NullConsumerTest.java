package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.loader.Batch;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NullConsumerTest {

    @Test
    void countsTheSamplesOfMapsListsAndTensors() {
        try (Arena arena = Arena.ofConfined()) {
            Tensor images = Tensor.allocate(arena, DType.F32, Shape.of(4, 3, 2, 2));
            Tensor labels = Tensor.allocate(arena, DType.I64, Shape.of(4));
            Object[] shapes = {
                Map.of("image", images, "label", labels),
                List.of(images, labels),
                images,
                List.of("not a tensor", labels)
            };
            for (Object data : shapes) {
                Batch batch = new Batch(0, 0, new long[] {0, 1, 2, 3}, data, List.of());
                assertThat(NullConsumer.consume(batch)).as(data.getClass().getSimpleName()).isEqualTo(4);
            }
        }
    }
}
