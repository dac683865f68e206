package dev.stoker.vision.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A decode error keeps what the decoder threw; an Error is never reported as a damaged image. */
class DecodeCausesTest {

    @Test
    void theDecodersExceptionIsTheCause() {
        byte[] png = Arrays.copyOf(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}, 64);
        Arrays.fill(png, 8, 64, (byte) 0x5A); // a PNG signature, then no IHDR: ImageIO throws an IIOException
        try (ImageDecoder decoder = ImageDecoder.create(DecodeOptions.defaults().withUseTurboJpeg(false));
             DecodeSession s = decoder.session()) {
            ImageDecodeException e = catchThrowableOfType(ImageDecodeException.class, () -> s.decode(png, "bad.png"));
            assertThat(e).hasMessageStartingWith("bad.png: not an image that can be read");
            assertThat(e.getCause()).isInstanceOf(IOException.class);
        }
    }

    @Test
    void anErrorFromADecoderCallIsThrownOnNotCalledDamage() {
        OutOfMemoryError oom = new OutOfMemoryError("Cannot reserve 48000000 bytes of direct buffer memory");
        assertThatThrownBy(() -> DecoderFailure.of("tjDecompress2 failed", oom)).isSameAs(oom);
        IllegalStateException bug = new IllegalStateException("already closed");
        DecoderFailure f = DecoderFailure.of("tjDecompress2 failed", bug);
        assertThat(f).hasMessage("tjDecompress2 failed: java.lang.IllegalStateException: already closed").hasCause(bug);
    }
}
