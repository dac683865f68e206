package dev.stoker.vision.decode;

/**
 * One decoder could not read an image; the session then tries the next one, unless the failure
 * is {@linkplain #isFinal() final}. Internal.
 */
final class DecoderFailure extends Exception {
    private final boolean isFinal;

    DecoderFailure(String message) {
        this(message, false);
    }

    /** @param isFinal whether the data itself is at fault, so that no other decoder should be tried */
    DecoderFailure(String message, boolean isFinal) {
        super(message, null, false, false);
        this.isFinal = isFinal;
    }

    /**
     * Whether the data itself is at fault (damaged, in strict mode), not the decoder's reach: the
     * next decoder would refuse it too, after decoding all of it.
     */
    boolean isFinal() {
        return isFinal;
    }
}
