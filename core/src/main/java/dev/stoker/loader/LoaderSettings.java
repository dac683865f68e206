package dev.stoker.loader;

import dev.stoker.collate.Collate;
import dev.stoker.data.Dataset;
import dev.stoker.data.StreamingDataset;
import dev.stoker.data.WorkerContext;
import dev.stoker.sampler.BatchSampler;
import java.time.Duration;
import java.util.Iterator;
import java.util.function.Consumer;

/**
 * A loader's settings once {@link LoaderBuilder#build()} has checked them: what every
 * engine reads. Exactly one of {@code dataset} and {@code streamingDataset} is set; a map-style
 * loader always has its {@code batchSampler} (the default one built from shuffle, seed, batch
 * size and dropLast, or the user's).
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
record LoaderSettings<T>(
        String datasetName,
        Dataset<T> dataset,
        StreamingDataset<T> streamingDataset,
        BatchSampler batchSampler,
        int batchSize,
        boolean dropLast,
        Collate<T> collate,
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

    boolean isStreaming() {
        return streamingDataset != null;
    }

    /** A pass's index batches, each told to the dataset {@link #lookahead} batches before it is made. */
    Iterator<long[]> hinted(Iterator<long[]> batches) {
        return Lookahead.of(batches, lookahead, indices -> {
            try {
                dataset.willNeed(indices);
            } catch (RuntimeException e) {
                // a hint: what it would have started is done, and reported, when the batch is made
            }
        });
    }
}
