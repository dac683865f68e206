/**
 * Image decoding into reused off-heap 8-bit RGB buffers, with the pixels of PIL's
 * {@code Image.open(f).convert("RGB")}: libjpeg-turbo's TurboJPEG API bound through the FFM
 * {@link java.lang.foreign.Linker} when {@code libturbojpeg.so.0} is installed (DCT scaling
 * included); libwebp bound the same way for WebP when {@code libwebp.so.7} is installed, the
 * pure-Java TwelveMonkeys ImageIO plugin when not; PBM, PGM and PPM read by hand as PIL reads
 * them; the JDK's ImageIO for the rest (PNG, BMP, TIFF, JPEGs whose header libjpeg-turbo cannot
 * read) and where libjpeg-turbo is missing. {@link dev.stoker.vision.decode.ImageDecoder} owns the
 * per-thread state; {@link dev.stoker.vision.decode.DecodeSession} is one thread's share of it.
 * Files are untrusted: sizes are checked against the pixel limit before anything is allocated,
 * and every failure is an {@link dev.stoker.vision.decode.ImageDecodeException} naming the source.
 */
package dev.stoker.vision.decode;
