package dev.stoker.memory;

/**
 * Thrown when a {@link BufferPool} cannot hand out a buffer within its byte budget before the
 * acquire timeout. The message names the budget and who holds the memory.
 */
public final class PoolExhaustedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PoolExhaustedException(String message) {
        super(message);
    }
}
