package dev.stoker.formats.megatron;

import java.io.IOException;

/**
 * A Megatron-LM indexed dataset that cannot be read: the message names the file, the sequence or
 * document where that applies, and what was wrong (a bad header, a count the file cannot hold, a
 * sequence outside the {@code .bin}, document indices out of order).
 */
public final class MegatronFormatException extends IOException {
    public MegatronFormatException(String message) {
        super(message);
    }
}
