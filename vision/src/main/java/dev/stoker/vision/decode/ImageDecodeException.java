package dev.stoker.vision.decode;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;

/**
 * An image that cannot be decoded: empty, truncated, damaged, not an image, or larger than the
 * pixel limit. The message names the source (file path or sample key) and what was wrong. A
 * {@link DataFormatException} about the image as a whole (the decoders say where in words).
 */
public final class ImageDecodeException extends DataFormatException {
    private static final long serialVersionUID = 1L;

    /**
     * @param source  the file path or sample key the image came from
     * @param problem what was wrong, for a person
     */
    public ImageDecodeException(String source, String problem) {
        this(source, problem, null);
    }

    /**
     * @param source  the file path or sample key the image came from
     * @param problem what was wrong, for a person
     * @param cause   the decoder's failure, or null
     */
    public ImageDecodeException(String source, String problem, Throwable cause) {
        super(source + ": " + problem, source, DataPosition.wholeFile(), problem, cause);
    }
}
