package dev.stoker.formats.tar;

import java.io.InputStream;

/**
 * The bytes of a remote shard or file as they stream in (an HTTP body, a command's output),
 * behind a stall guard, and their length when the source announced one.
 *
 * @param length the announced length in bytes, or -1
 */
record RemoteBytes(InputStream in, long length) {
}
