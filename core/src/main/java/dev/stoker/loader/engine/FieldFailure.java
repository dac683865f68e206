package dev.stoker.loader.engine;

/**
 * A fill failed while writing {@code field}: carried from the thread that filled the row (a
 * fetch of the I/O mode, a helper of a shared first batch) to the message that names the
 * sample, so that it names this row's field rather than the last field another row asked for.
 */
final class FieldFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String field;

    FieldFailure(String field, Throwable cause) {
        super("filling field '" + field + "' failed", cause, false, false);
        this.field = field;
    }
}
