package dev.stoker.loader.engine;

import dev.stoker.data.WorkerContext;
import dev.stoker.loader.LoaderProfile;
import dev.stoker.loader.LoaderState;
import dev.stoker.loader.SamplePolicy;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * A loader's settings once {@link LoaderBuilder#build()} has checked them: what every engine and
 * source reads. What the loader reads, and how its batches are made, is its {@link Source}.
 *
 * @param batchSize the batch size of a streaming dataset and of the default batch sampler
 *                  (with a user's batch sampler it decides, and this is unused)
 * @param workerInit    run once in each worker thread when it starts, or {@code null}
 * @param ioConcurrency sample fetches that may wait at once (the I/O mode), or 0 for none
 * @param badSamples    what to do with a sample that cannot be read
 * @param snapshotEvery take a state every this many batches delivered, or 0 for never
 * @param onSnapshot    given each snapshot, or {@code null}
 * @param profileEvery  hand a window of the profile to {@code onProfile} this often, or {@code null} for never
 * @param onProfile     given each window's profile, or {@code null}
 * @param lookahead     how many batches ahead a map-style dataset hears of a batch ({@code willNeed}), 0 for never
 */
public record LoaderSettings(
        String datasetName,
        int batchSize,
        boolean dropLast,
        int numWorkers,
        int prefetchFactor,
        boolean persistentWorkers,
        boolean inOrder,
        Duration timeout,
        long seed,
        int rank,
        int worldSize,
        Consumer<WorkerContext> workerInit,
        int ioConcurrency,
        SamplePolicy badSamples,
        long snapshotEvery,
        Consumer<LoaderState> onSnapshot,
        Duration profileEvery,
        Consumer<LoaderProfile> onProfile,
        int lookahead) {

    /** The context of worker {@code worker} of {@code workers} in {@code epoch} (the consumer's thread is 0 of 1). */
    WorkerContext context(int worker, int workers, long epoch) {
        return new WorkerContext(worker, workers, rank, worldSize, epoch, seed);
    }
}
