package dev.stoker.collate;

/**
 * A batch's samples could not be collated. The message names the field (as a path such as
 * {@code field 'image'} or {@code element 0 of field 'pair'}), the position of the offending
 * sample in the batch, and what differed:
 *
 * <pre>
 * cannot stack field 'image': sample 0 has shape [3, 224, 224] but sample 5 has shape [3, 200, 224];
 * use PadCollate for variable-length samples
 * </pre>
 */
public final class CollateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CollateException(String message) {
        super(message);
    }

    public CollateException(String message, Throwable cause) {
        super(message, cause);
    }
}
