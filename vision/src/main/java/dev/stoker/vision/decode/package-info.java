/**
 * Image decoding into reused off-heap 8-bit RGB buffers: libjpeg-turbo's TurboJPEG API bound
 * through the FFM {@link java.lang.foreign.Linker} when {@code libturbojpeg.so.0} is installed
 * (DCT scaling included), the JDK's ImageIO for the rest (PNG, JPEGs whose header it cannot
 * read) and where the library is missing. {@link dev.stoker.vision.decode.ImageDecoder} owns the
 * per-thread state; {@link dev.stoker.vision.decode.DecodeSession} is one thread's share of it.
 * Files are untrusted: sizes are checked before anything is allocated, and every failure is an
 * {@link dev.stoker.vision.decode.ImageDecodeException} naming the source.
 */
package dev.stoker.vision.decode;
