package dev.stoker.formats.remote;

import java.io.IOException;
import java.io.InputStream;

/**
 * The bytes of a remote file as they stream in (an HTTP body, a command's output), behind a
 * read-ahead buffer and a stall guard, and their length when the source announced one. Closing it
 * cancels the HTTP exchange or ends the command.
 *
 * @param in     the bytes; a stall, a failed connection or a command's failing exit status is an
 *               {@link IOException} from its reads, naming the location
 * @param length the announced length in bytes, or -1
 */
public record RemoteBytes(InputStream in, long length) implements AutoCloseable {
    @Override
    public void close() throws IOException {
        in.close();
    }
}
