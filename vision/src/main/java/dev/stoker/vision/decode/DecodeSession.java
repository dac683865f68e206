package dev.stoker.vision.decode;

import dev.stoker.data.DataFiles;
import dev.stoker.memory.MappedDataChangedError;
import dev.stoker.memory.MappedReads;
import dev.stoker.metrics.Stage;
import dev.stoker.metrics.Stages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * One thread's decoding state, borrowed from an {@link ImageDecoder}: a libjpeg-turbo handle (when
 * the library is there) and the off-heap buffers that every image it decodes reuses. Closing it
 * gives it back to the decoder for the next borrower.
 *
 * <p>Decoding is two steps, so that a caller can choose the scale from the size:
 * {@link #open} reads the header (and checks it against the pixel limit), {@link #decode}
 * decodes. libjpeg-turbo is tried first; what its header reader refuses goes by its first bytes
 * to libwebp (WebP, when the library is there), to {@link PnmDecoder} (PBM, PGM, PPM), or to
 * ImageIO (PNG and the other formats, WebP without libwebp, CMYK JPEGs with unusual sampling,
 * 12-bit and lossless JPEGs) before the session gives up with an {@link ImageDecodeException}
 * naming the source and what each decoder said.
 *
 * <p>A JPEG whose header libjpeg-turbo has read stays with libjpeg-turbo, damaged or not. With
 * damaged files refused ({@link DecodeOptions#allowTruncated()} off) its first warning or error
 * refuses the image; with them allowed the image is what it decoded, the rest filled in (see
 * {@link DecodeOptions#allowTruncated()}). ImageIO is not asked again: the JDK's libjpeg stops on
 * the same errors and warns on the same damage, and for a progressive JPEG it first renders the
 * whole image once per scan, seconds for a damaged file of a few hundred scans.
 *
 * <pre>{@code
 * try (ImageDecoder decoder = ImageDecoder.create();
 *      DecodeSession session = decoder.session()) {
 *     ImageHeader header = session.open(jpegBytes, "n01440764/img_0001.jpg");
 *     DecodedImage image = session.decode(ScalingFactor.ONE);   // header.width() x header.height() RGB
 *     int red = image.get(0, 0, 0);
 * }
 * }</pre>
 *
 * <p>NOTE: not thread-safe; one thread at a time. The {@link DecodedImage} it returns lives in the
 * session's buffer until the next decode or close.
 */
public final class DecodeSession implements AutoCloseable {
    /** The largest byte[] the JVM allocates (a few bytes under Integer.MAX_VALUE). */
    private static final long MAX_ARRAY_BYTES = Integer.MAX_VALUE - 8;
    private final ImageDecoder owner;
    private final TurboJpegDecoder turbo;
    /** libwebp, looked up at this session's first WebP (null before, and where it is missing). */
    private LibWebp webp;
    private boolean webpLookedUp;
    private final NativeBuffer pixels = new NativeBuffer();
    private final NativeBuffer inputCopy = new NativeBuffer();
    private boolean borrowed;

    // The opened image.
    private MemorySegment data;
    private MemorySegment nativeData;
    private String source;
    private TurboJpegDecoder.Header turboHeader;
    private String turboFailure;
    private ImageHeader header;
    private Route route;
    private PnmHeader pnmHeader;

    /** Which decoder reads the opened image. */
    private enum Route { TURBO, WEBP, PNM, IMAGEIO }

    DecodeSession(ImageDecoder owner, TurboJpeg tj) {
        this.owner = owner;
        this.turbo = tj == null ? null : new TurboJpegDecoder(tj);
    }

    /** libwebp (loaded by the first WebP any session meets), or null where it is missing or not wanted. */
    private LibWebp webp() {
        if (!webpLookedUp) {
            webp = owner.webp();
            webpLookedUp = true;
        }
        return webp;
    }

    /**
     * Reads {@code file} into the session's buffer, off the heap, and opens it as
     * {@link #open(MemorySegment, String)} does: the bytes go from the file straight to the
     * decoder, with no array per image (reading W3's files into arrays was 80% of what its
     * workers allocated, and what sized the heap). What the file holds when read is the image;
     * the time is the {@link Stage#READ} stage.
     *
     * @throws UncheckedIOException when the file cannot be read, naming it, and when it is not a
     *     regular file (a named pipe, a device, a socket, a folder: see {@link DataFiles}) rather
     *     than blocking on it or reading it without end
     * @throws ImageDecodeException as {@link #open(MemorySegment, String)} does, and when the file
     *     is larger than any image that can be decoded
     */
    public ImageHeader open(Path file) {
        checkBorrowed();
        String name = file.toString();
        long t = Stages.start();
        MemorySegment bytes;
        // DataFiles: a FIFO named like an image would block this open forever, a link to a device
        // would read zeros; refused first, by one stat (a few microseconds of the ~1 ms an image
        // takes). The JDK cannot ask the opened file instead: its open would already have blocked.
        try (FileChannel ch = DataFiles.openChannel(file)) {
            long size = ch.size();
            checkEncodedSize(size, name, "");
            // What the file holds now, not what size() said: it may change under us.
            MemorySegment buffer = inputCopy.ensure(Math.max(1, size));
            ByteBuffer into = buffer.asByteBuffer().limit((int) size);
            while (into.hasRemaining() && ch.read(into) >= 0) {
                // keep reading
            }
            bytes = buffer.asSlice(0, into.position());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name + ": " + e, e);
        } finally {
            Stages.end(Stage.READ, t);
        }
        return open(bytes, name);
    }

    /** Opens {@code bytes}, read from {@code source} (a path or key, used in messages); see {@link #open(MemorySegment, String)}. */
    public ImageHeader open(byte[] bytes, String source) {
        return open(MemorySegment.ofArray(bytes), source);
    }

    /**
     * Reads the header of the image in {@code bytes} (heap or off-heap; not copied when
     * off-heap, except from a memory-mapped file: those bytes are copied into the session's
     * buffer first, so that a file cut short under its map gives a {@link MappedDataChangedError}
     * here rather than a fault inside the native decoder, which would kill the JVM).
     *
     * @param source the file path or sample key, for error messages
     * @throws ImageDecodeException when the data is empty, not an image either decoder reads,
     *     or larger than the pixel limit
     * @throws MappedDataChangedError when {@code bytes} lie in a memory-mapped file that was cut
     *     short under its map
     */
    public ImageHeader open(MemorySegment bytes, String source) {
        checkBorrowed();
        if (bytes.isMapped()) {
            // Native decoders never read a map: a file cut short under it would kill the JVM there.
            bytes = copyMapped(bytes, source);
        }
        this.data = bytes;
        this.source = source;
        this.nativeData = null;
        this.turboHeader = null;
        this.turboFailure = null;
        this.header = null;
        this.pnmHeader = null;
        if (bytes.byteSize() == 0) {
            throw new ImageDecodeException(source, "empty (0 bytes)");
        }
        if (turbo != null) {
            nativeData = bytes.isNative() ? bytes : copyOffHeap(bytes);
            try {
                turboHeader = turbo.header(nativeData);
                owner.checkSize(source, turboHeader.width(), turboHeader.height(), turboHeader.format());
                header = new ImageHeader(turboHeader.width(), turboHeader.height(), turboHeader.format());
                route = Route.TURBO;
                return header;
            } catch (DecoderFailure f) {
                turboFailure = f.getMessage();
            }
        }
        // Not a JPEG libjpeg-turbo reads. Every JPEG starts with 0xFF: one byte keeps the JPEG path
        // clear of the checks for the formats with decoders of their own.
        if (bytes.get(ValueLayout.JAVA_BYTE, 0) != (byte) 0xFF) {
            if (WebpDecoder.isWebp(bytes)) {
                LibWebp webp = webp();
                String problem = WebpDecoder.problem(bytes, webp != null && webp.demux != null);
                if (problem != null) {
                    throw new ImageDecodeException(source, "not a WebP image that can be read (" + problem + ")");
                }
                if (webp != null) {
                    return openWebp(bytes);
                }
            }
            if (PnmDecoder.isPnm(bytes)) {
                return openPnm(bytes);
            }
        }
        try {
            ImageHeader h = ImageIODecoder.header(heapBytes());
            owner.checkSize(source, h.width(), h.height(), h.format());
            header = h;
            route = Route.IMAGEIO;
            return h;
        } catch (DecoderFailure f) {
            throw new ImageDecodeException(source, "not an image that can be read (" + failures(f.getMessage())
                    + ", " + bytes.byteSize() + " bytes starting " + ImageIODecoder.firstBytes(firstBytes(bytes)) + ")",
                    f.getCause());
        }
    }

    private ImageHeader openWebp(MemorySegment bytes) {
        if (nativeData == null) {
            nativeData = bytes.isNative() ? bytes : copyOffHeap(bytes);
        }
        try {
            ImageHeader h = WebpDecoder.header(webp, nativeData);
            owner.checkSize(source, h.width(), h.height(), h.format());
            header = h;
            route = Route.WEBP;
            return h;
        } catch (DecoderFailure f) {
            throw new ImageDecodeException(source, "not a WebP image that can be read (libwebp: " + f.getMessage()
                    + ", " + bytes.byteSize() + " bytes starting " + ImageIODecoder.firstBytes(firstBytes(bytes)) + ")");
        }
    }

    private ImageHeader openPnm(MemorySegment bytes) {
        try {
            PnmHeader h = PnmDecoder.header(bytes);
            owner.checkSize(source, h.width(), h.height(), h.format());
            pnmHeader = h;
            header = new ImageHeader(h.width(), h.height(), h.format());
            route = Route.PNM;
            return header;
        } catch (DecoderFailure f) {
            throw new ImageDecodeException(source, "not a PNM image that can be read (" + f.getMessage()
                    + ", " + bytes.byteSize() + " bytes starting " + ImageIODecoder.firstBytes(firstBytes(bytes)) + ")");
        }
    }

    /**
     * Decodes the opened image at {@code scale} when libjpeg-turbo reads it; the other decoders
     * always decode at full size, so check the returned image's size.
     */
    public DecodedImage decode(ScalingFactor scale) {
        checkBorrowed();
        if (header == null) {
            throw new IllegalStateException("open an image before decoding it");
        }
        if (route == Route.TURBO) {
            try {
                return turbo.decode(nativeData, turboHeader, scale, pixels, owner.options().allowTruncated());
            } catch (DecoderFailure f) {
                throw new ImageDecodeException(source, "cannot decode this " + header.format() + " image of "
                        + header.width() + "x" + header.height() + " (libjpeg-turbo: " + f.getMessage() + ")", f.getCause());
            }
        }
        if (route == Route.WEBP || route == Route.PNM) {
            try {
                return route == Route.WEBP ? WebpDecoder.decode(webp, nativeData, header, pixels)
                        : PnmDecoder.decode(data, pnmHeader, pixels, owner.options().allowTruncated());
            } catch (DecoderFailure f) {
                throw new ImageDecodeException(source, "cannot decode this " + header.format() + " image of "
                        + header.width() + "x" + header.height() + " (" + f.getMessage() + ")");
            }
        }
        try {
            return ImageIODecoder.decode(heapBytes(), source, pixels, owner.options());
        } catch (DecoderFailure f) {
            throw new ImageDecodeException(source, "cannot decode this " + header.format() + " image of "
                    + header.width() + "x" + header.height() + " (" + failures(f.getMessage()) + ")", f.getCause());
        }
    }

    /**
     * Decodes the part of the opened image that holds the source region {@code [left, left + width)
     * x [top, top + height)} (full-size pixels) at {@code scale}. With libjpeg-turbo 3 only the
     * region (a little wider) is decoded, and its pixels are the whole decode's at {@code scale},
     * bit for bit; with 2.x a JPEG is cut losslessly to the MCUs around the region first, when
     * that saves work, and only they are decoded (the pixels differ from a whole decode's along
     * the cut). Otherwise, and for every other format, the whole image is decoded as
     * {@link #decode(ScalingFactor)} does, with the same errors. With damaged files refused,
     * libjpeg-turbo 3 decodes a region on its own only from a file that ends with its
     * end-of-image marker; damage in the rows below the region is not seen.
     *
     * @throws ImageDecodeException as {@link #decode(ScalingFactor)}
     */
    public DecodedRegion decodeRegion(ScalingFactor scale, int left, int top, int width, int height) {
        return decodeRegion(scale, left, top, width, height, false);
    }

    /** As {@link #decodeRegion(ScalingFactor, int, int, int, int)}; {@code always}: crop even where it saves nothing (tests). */
    DecodedRegion decodeRegion(ScalingFactor scale, int left, int top, int width, int height, boolean always) {
        checkBorrowed();
        if (header == null) {
            throw new IllegalStateException("open an image before decoding it");
        }
        if (route == Route.TURBO && width > 0 && height > 0) {
            try {
                DecodedRegion region = turbo.decodeRegion(nativeData, turboHeader, left, top, width, height, scale, pixels,
                        always, owner.options().allowTruncated());
                if (region != null) {
                    return region;
                }
            } catch (DecoderFailure f) {
                // A failed native call: the whole decode below says what is wrong, or decodes it.
            }
        }
        return DecodedRegion.whole(decode(scale));
    }

    /** Opens and decodes at full size. */
    public DecodedImage decode(MemorySegment bytes, String source) {
        open(bytes, source);
        return decode(ScalingFactor.ONE);
    }

    /** Opens and decodes at full size. */
    public DecodedImage decode(byte[] bytes, String source) {
        return decode(MemorySegment.ofArray(bytes), source);
    }

    /** The off-heap bytes this session holds (pixels and input copies), so that tests can bound them. */
    long bufferBytes() {
        return pixels.capacity() + inputCopy.capacity();
    }

    /** Whether this session has a libjpeg-turbo handle. */
    public boolean hasTurboJpeg() {
        return turbo != null;
    }

    private String failures(String imageIo) {
        return (turboFailure == null ? "" : "libjpeg-turbo: " + turboFailure + "; ") + "ImageIO: " + imageIo;
    }

    /**
     * The bytes of a memory-mapped file, copied into the session's buffer in Java, where a read
     * past the end of a file cut short under its map is an {@link InternalError} that this names,
     * instead of a {@code SIGBUS} inside libjpeg-turbo or libwebp that kills the JVM.
     */
    private MemorySegment copyMapped(MemorySegment bytes, String source) {
        checkEncodedSize(bytes.byteSize(), source, " of a mapped file");
        try {
            MemorySegment copy = copyOffHeap(bytes);
            MappedReads.deliverPendingFault(); // a fault that compiled code deferred surfaces here
            return copy;
        } catch (InternalError e) {
            if (!MappedReads.isFault(e)) {
                throw e;
            }
            throw new MappedDataChangedError(source + ": the memory-mapped file that holds this image ("
                    + bytes.byteSize() + " bytes) changed while it was mapped: it was cut short (truncated, or is"
                    + " being rewritten in place), and reading the image faulted past its new end. Reopen the dataset"
                    + " once the file is whole; to replace a file that is being read, write the new one beside it and"
                    + " rename it over the old", e);
        }
    }

    /**
     * Refuses, before any memory is taken for it, an encoded image larger than an image within the
     * pixel limit can be: 4 bytes a pixel (RGBA, stored uncompressed) and 1 MiB for the format's
     * own data, and never more than a Java array holds (ImageIO reads arrays). A file's or a
     * mapped slice's size is untrusted: reading a 2 GB ".jpg" would have taken 2 GB off the heap.
     */
    private void checkEncodedSize(long size, String source, String what) {
        long maxPixels = owner.options().maxPixels();
        long limit = maxPixels > (MAX_ARRAY_BYTES - (1L << 20)) / 4 ? MAX_ARRAY_BYTES : maxPixels * 4 + (1L << 20);
        if (size > limit) {
            throw new ImageDecodeException(source, "too large to read: " + size + " bytes" + what + ", more than an"
                    + " image within the pixel limit (" + maxPixels + " pixels, DecodeOptions.maxPixels) takes encoded ("
                    + limit + " bytes)");
        }
    }

    private MemorySegment copyOffHeap(MemorySegment bytes) {
        MemorySegment copy = inputCopy.ensure(bytes.byteSize());
        MemorySegment.copy(bytes, 0, copy, 0, bytes.byteSize());
        return copy;
    }

    /** The data as ImageIO takes it: a byte[], copied unless it is one already. */
    private byte[] heapBytes() throws DecoderFailure {
        // A segment over a whole byte[] (MemorySegment.ofArray) needs no copy.
        if (data.heapBase().orElse(null) instanceof byte[] array && array.length == data.byteSize()
                && data.address() == 0) {
            return array;
        }
        // A mapped file can be larger than any array: toArray would throw IllegalStateException.
        if (data.byteSize() > MAX_ARRAY_BYTES) {
            throw new DecoderFailure("too large to read: " + data.byteSize() + " bytes, more than a Java array holds");
        }
        return data.toArray(ValueLayout.JAVA_BYTE);
    }

    private static byte[] firstBytes(MemorySegment bytes) {
        return bytes.asSlice(0, Math.min(8, bytes.byteSize())).toArray(ValueLayout.JAVA_BYTE);
    }

    private void checkBorrowed() {
        if (!borrowed) {
            throw new IllegalStateException("this decode session was given back to its decoder");
        }
    }

    void lend() {
        borrowed = true;
    }

    /** Gives the session back to its decoder; its last image's pixels may be reused at once. */
    @Override
    public void close() {
        if (borrowed) {
            borrowed = false;
            data = null;
            nativeData = null;
            owner.giveBack(this);
        }
    }

    /** Frees the handle and the buffers: done by the decoder, never while borrowed. */
    void destroy() {
        if (turbo != null) {
            turbo.close();
        }
        pixels.close();
        inputCopy.close();
    }
}
