package dev.stoker.loader.engine;

/**
 * Where a streaming worker's stream stands after one of its batches (or its failure), carried by
 * the batch to the consumer so that the {@link StreamLog} counts only what was delivered, not what
 * the workers read ahead.
 *
 * @param worker       the worker of this rank whose stream it is
 * @param samplesAfter samples of the stream read (or skipped as bad) up to the end of this batch
 * @param batchesAfter the worker's batches up to and including this one (the batch it makes next)
 * @param last         the stream ends with this batch (or failed)
 */
record StreamMark(int worker, long samplesAfter, long batchesAfter, boolean last) {}
