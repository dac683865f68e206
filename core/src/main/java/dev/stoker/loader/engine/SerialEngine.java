package dev.stoker.loader.engine;

import dev.stoker.data.WorkerContext;

/**
 * Loads every batch in the consumer's thread, when it is asked for: {@code numWorkers(0)}. Nothing
 * is loaded ahead, so nothing is left to clean up but an open stream. The consumer's thread is
 * worker 0 of 1: fetches run with that {@link WorkerContext} and the batch's generator
 * ({@link WorkerContext#currentRandom()}); no {@code workerInit} hook runs, as in PyTorch. The
 * source says what a pass is ({@link SerialMapPass}, {@link SerialStreamPass}).
 */
public final class SerialEngine<T> implements Engine {
    private final Source<T> source;
    private final BatchMaker maker;

    public SerialEngine(Source<T> source, BatchMaker maker) {
        this.source = source;
        this.maker = maker;
    }

    @Override
    public BatchSource start(long epoch) {
        return source.serialPass(epoch, maker);
    }

    @Override
    public void close() {}
}
