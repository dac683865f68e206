package dev.stoker.vision.decode;

/** One decoder could not read an image; the session then tries the next one. Internal. */
final class DecoderFailure extends Exception {
    DecoderFailure(String message) {
        super(message, null, false, false);
    }
}
