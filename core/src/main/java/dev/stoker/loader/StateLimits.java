package dev.stoker.loader;

/**
 * The bound every count in a saved state keeps to, in one place below both records that check
 * it ({@link LoaderState#MAX_COUNT} is its public name), so that the stream part of a state need
 * not reach up to the whole.
 */
final class StateLimits {
    /** 2^53: no run comes near it, every JSON reader keeps such a number exactly, no sum of two overflows. */
    static final long MAX_COUNT = 1L << 53;

    private StateLimits() {}
}
