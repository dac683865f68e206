package dev.stoker.loader;

/**
 * What a pass tells whoever started it: that the consumer received a batch (or its error), and
 * that the pass closed. Lets a {@link BatchIterator} report to its loader without knowing it.
 */
interface PassListener {

    /** The consumer received a batch or a batch's error; called in the consumer's thread. */
    void received();

    /** The pass closed; from whichever thread closed it. */
    void closed();
}
