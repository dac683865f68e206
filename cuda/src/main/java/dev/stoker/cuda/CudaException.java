package dev.stoker.cuda;

/** A CUDA runtime call failed; the message names the call, the error's name and its description. */
public final class CudaException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int code;

    public CudaException(String message, int code) {
        super(message);
        this.code = code;
    }

    /** The {@code cudaError_t} value. */
    public int code() {
        return code;
    }
}
