package dev.stoker.loader;

/**
 * One sample a loader left out under {@link SamplePolicy#SKIP}.
 *
 * @param epoch   the epoch of the pass
 * @param batch   the position in the epoch of the batch it belonged to (for a stream, within
 *                the worker's stream)
 * @param index   the sample's dataset index; for a streaming dataset its position in the stream
 *                of the worker that read it, from 0
 * @param message the cause, as {@code ExceptionType: message}
 */
public record SkippedSample(long epoch, long batch, long index, String message) {

    @Override
    public String toString() {
        return "sample " + index + " of batch " + batch + " of epoch " + epoch + ": " + message;
    }
}
