package dev.stoker.djl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import ai.djl.Model;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.nn.Parameter;
import ai.djl.nn.core.Linear;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.EasyTrain;
import ai.djl.training.Trainer;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import dev.stoker.data.TensorDataset;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A real, short training run: DJL's trainer on the PyTorch engine, fed by a Stoker loader with workers. */
class TrainingTest {
    private static final int N = 512;
    private static final int FEATURES = 4;
    private static final int BATCH = 32;
    private static final float[] TRUE_W = {2f, -3.4f, 1.5f, 0.5f};
    private static final float TRUE_B = 4.2f;

    @Test
    void linearRegressionLearnsFromStokerBatches() throws Exception {
        try (Arena arena = Arena.ofShared()) {
            Tensor x = Tensor.allocate(arena, DType.F32, Shape.of(N, FEATURES));
            Tensor y = Tensor.allocate(arena, DType.F32, Shape.of(N, 1));
            SplittableRandom random = new SplittableRandom(42);
            for (int i = 0; i < N; i++) {
                double target = TRUE_B;
                for (int j = 0; j < FEATURES; j++) {
                    double v = random.nextDouble(-1, 1);
                    x.setDouble((long) i * FEATURES + j, v);
                    target += TRUE_W[j] * v;
                }
                y.setDouble(i, target + random.nextDouble(-0.01, 0.01));
            }
            TensorDataset<List<Tensor>> samples = TensorDataset.of(x, y);
            try (DataLoader<List<Tensor>> train = DataLoader.builder(samples)
                         .batchSize(BATCH).shuffle(true).seed(1).numWorkers(2).build();
                 DataLoader<List<Tensor>> validate = DataLoader.builder(samples).batchSize(128).build();
                 Model model = Model.newInstance("linear", DjlTypes.PYTORCH)) {
                model.setBlock(Linear.builder().setUnits(1).build());
                var config = new DefaultTrainingConfig(Loss.l2Loss())
                        .optOptimizer(Optimizer.sgd().setLearningRateTracker(Tracker.fixed(0.3f)).build());
                try (Trainer trainer = model.newTrainer(config)) {
                    trainer.initialize(new ai.djl.ndarray.types.Shape(BATCH, FEATURES));
                    double before = meanSquaredError(trainer, x, y);

                    EasyTrain.fit(trainer, 6, new StokerDataset(train), new StokerDataset(validate));

                    double after = meanSquaredError(trainer, x, y);
                    assertThat(after).as("loss before %s, after %s", before, after).isLessThan(before / 100);
                    Parameter weight = model.getBlock().getParameters().get("weight");
                    float[] w = weight.getArray().toFloatArray();
                    for (int j = 0; j < FEATURES; j++) {
                        assertThat(w[j]).as("weight %d", j).isCloseTo(TRUE_W[j], within(0.1f));
                    }
                }
                assertThat(train.epoch()).isEqualTo(5);
                assertThat(train.stats().batches()).isEqualTo(6L * N / BATCH);
                assertThat(train.pool().lentBytes()).isZero();
                assertThat(validate.pool().lentBytes()).isZero();
            }
        }
    }

    /** The model's mean squared error over all samples, the inputs wrapped without a copy too. */
    private static double meanSquaredError(Trainer trainer, Tensor x, Tensor y) {
        try (NDManager m = trainer.getManager().newSubManager()) {
            NDArray prediction = trainer.evaluate(new NDList(NdArrays.wrap(m, x))).head();
            return prediction.sub(NdArrays.wrap(m, y)).square().mean().getFloat();
        }
    }
}
