package dev.stoker.formats.megatron;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.DataPosition;

/**
 * A Megatron-LM indexed dataset that cannot be read: the message names the file, the sequence or
 * document where that applies, and what was wrong (a bad header, a count the file cannot hold, a
 * sequence outside the {@code .bin}, document indices out of order). A {@link DataFormatException}
 * (unchecked: it was an {@link java.io.IOException} before).
 */
public final class MegatronFormatException extends DataFormatException {
    private static final long serialVersionUID = 1L;

    /**
     * @param file the {@code .idx} or {@code .bin} file
     * @param what what was wrong, naming the sequence or document where that applies
     */
    public MegatronFormatException(String file, String what) {
        super(file + ": " + what, file, DataPosition.inMessage(), what, null);
    }
}
