package dev.stoker.vision.decode;

/** One decoder could not read an image, with its reason; the session decides what follows. Internal. */
final class DecoderFailure extends Exception {
    DecoderFailure(String message) {
        super(message, null, false, false);
    }

    /** A failure with what the decoder threw as its cause, for the {@link ImageDecodeException} to keep. */
    DecoderFailure(String message, Throwable cause) {
        super(message, cause, false, false);
    }

    /**
     * The failure of a call into a decoder that threw {@code thrown}. An {@link Error} (out of
     * memory, say) is no verdict on the image: it is thrown on as it is, never reported as a
     * damaged file.
     */
    static DecoderFailure of(String call, Throwable thrown) {
        if (thrown instanceof Error e) {
            throw e;
        }
        return new DecoderFailure(call + ": " + thrown, thrown);
    }
}
