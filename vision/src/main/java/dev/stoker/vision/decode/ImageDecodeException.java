package dev.stoker.vision.decode;

/**
 * An image that cannot be decoded: empty, truncated, damaged, not an image, or larger than the
 * pixel limit. The message names the source (file path or sample key) and what was wrong.
 */
public final class ImageDecodeException extends RuntimeException {
    private final String source;

    public ImageDecodeException(String source, String problem) {
        this(source, problem, null);
    }

    public ImageDecodeException(String source, String problem, Throwable cause) {
        super(source + ": " + problem, cause);
        this.source = source;
    }

    /** The file path or sample key the image came from, as the caller named it. */
    public String source() {
        return source;
    }
}
