package dev.stoker.vision.decode;

/** One decoder could not read an image, with its reason; the session decides what follows. Internal. */
final class DecoderFailure extends Exception {
    DecoderFailure(String message) {
        super(message, null, false, false);
    }
}
