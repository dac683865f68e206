package dev.stoker.vision.decode;

import dev.stoker.memory.MemorySources;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decodes images into 8-bit RGB as PIL's {@code Image.open(f).convert("RGB")} does: JPEG with
 * libjpeg-turbo when the system has {@code libturbojpeg}, else with the JDK's ImageIO; WebP with
 * libwebp when the system has {@code libwebp} (loaded when the first WebP comes), else with the
 * pure-Java TwelveMonkeys plugin;
 * PBM, PGM and PPM by {@link PnmDecoder}; PNG, BMP, TIFF and GIF with ImageIO. The first use logs
 * one line per library saying which.
 *
 * <p>Decoding happens in {@link DecodeSession}s: each holds a TurboJPEG handle (which is not
 * thread-safe) and reused off-heap buffers. Sessions are lent to one thread at a time and come
 * back on {@link DecodeSession#close()}, so there are never more of them than threads decoding at
 * once, whatever threads come and go (workers, virtual threads, a pool that grows). The decoder
 * owns them: {@link #close()} frees those idle and each one lent out when it comes back.
 *
 * <pre>{@code
 * try (ImageDecoder decoder = ImageDecoder.create()) {            // shared by every worker
 *     try (DecodeSession s = decoder.session()) {                  // per image, or per batch
 *         DecodedImage image = s.decode(jpegBytes, "train/cat/1.jpg");
 *     }
 * }
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class ImageDecoder implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ImageDecoder.class.getName());
    private final DecodeOptions options;
    /** Whether JPEG goes to libjpeg-turbo when the system has it; see {@link #turbo()}. */
    private final boolean turboWanted;
    /** Whether WebP goes to libwebp when the system has it; the library is loaded at the first WebP. */
    private final boolean libWebpWanted;
    private final ConcurrentLinkedQueue<DecodeSession> idle = new ConcurrentLinkedQueue<>();
    private final AtomicInteger created = new AtomicInteger();
    private final AtomicLong largeImages = new AtomicLong();
    private volatile boolean closed;

    private ImageDecoder(DecodeOptions options, boolean turboWanted, boolean libWebpWanted) {
        this.options = options;
        this.turboWanted = turboWanted;
        this.libWebpWanted = libWebpWanted;
    }

    private static final AtomicBoolean TURBO_LOADING = new AtomicBoolean();

    /**
     * Loads libjpeg-turbo on a thread of its own, once per JVM: in a new JVM that is 150-400 ms
     * (the FFM linker's first use, its eleven functions, the logging system for its one line), which
     * a dataset's build used to wait for. The caller goes on (scans its folder, builds its loader)
     * meanwhile; whoever needs the library first waits for the load to finish (the JVM's class
     * initialization lock), and it is never loaded twice.
     */
    private static void loadTurboJpegInBackground() {
        if (TURBO_LOADING.getAndSet(true)) {
            return;
        }
        Thread.ofPlatform().daemon().name("stoker-load-turbojpeg").start(() -> {
            try {
                // by name: TurboJpeg.anything() would initialize the class on the calling thread
                Class.forName("dev.stoker.vision.decode.TurboJpeg", true, ImageDecoder.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                // the first use then meets the same error on its own thread, where it is thrown as before
            }
            // the linker is warm now: the pool's mmap is 20-30 ms more here, and a first batch's
            // 40 MB block is then mapped instead of allocated and zeroed while the workers wait
            MemorySources.linkNativeCalls();
            DecodeWarmup.run();
        });
    }

    /** libjpeg-turbo when wanted and installed, else null; waits for the background load to end. */
    private TurboJpeg turbo() {
        return turboWanted ? TurboJpeg.instance().orElse(null) : null;
    }

    /** A decoder with the {@linkplain DecodeOptions#defaults() default options}. */
    public static ImageDecoder create() {
        return create(DecodeOptions.defaults());
    }

    public static ImageDecoder create(DecodeOptions options) {
        if (options.useTurboJpeg()) {
            loadTurboJpegInBackground();
        }
        // libwebp is not looked for here: binding it took 150-250 ms of a new JVM's first batch
        // on folders without a WebP in them. LibWebp.instance() loads it once, thread-safely.
        return new ImageDecoder(options, options.useTurboJpeg(), options.useLibWebp());
    }

    /** Whether libjpeg-turbo can be loaded on this system. */
    public static boolean turboJpegAvailable() {
        return TurboJpeg.instance().isPresent();
    }

    /**
     * Which libjpeg-turbo is loaded and which of its APIs decodes (for reports), or empty when
     * none is: the library named by {@code -Dstoker.turbojpeg.path} or {@code STOKER_TURBOJPEG}
     * when it loads, else the system's.
     */
    public static Optional<String> turboJpegLibrary() {
        return TurboJpeg.instance().map(TurboJpeg::describe);
    }

    /**
     * Whether the loaded libjpeg-turbo decodes only a region of a JPEG (its TurboJPEG 3 API,
     * libjpeg-turbo 3.0 or later), so that a crop costs less than the whole image.
     */
    public static boolean turboJpegDecodesRegions() {
        return TurboJpeg.instance().map(t -> t.v3 != null).orElse(false);
    }

    public DecodeOptions options() {
        return options;
    }

    /** Whether libwebp can be loaded on this system. */
    public static boolean libWebpAvailable() {
        return LibWebp.instance().isPresent();
    }

    /**
     * Whether this decoder decodes WebP with libwebp (else with the pure-Java ImageIO plugin). Loads
     * libwebp if no WebP has done so yet.
     */
    public boolean usesLibWebp() {
        return webp() != null;
    }

    /** libwebp when wanted and installed, else null; loaded by the first WebP (or the first call). */
    LibWebp webp() {
        return libWebpWanted ? LibWebp.instance().orElse(null) : null;
    }

    /** Whether this decoder tries libjpeg-turbo first. */
    public boolean usesTurboJpeg() {
        return turbo() != null;
    }

    /**
     * Which decoders are used, for logs and reports. Does not load libwebp: until a WebP has been
     * met, says that it will be looked for then.
     */
    public String describe() {
        TurboJpeg turbo = turbo();
        String jpeg = turbo != null ? "libjpeg-turbo (" + turbo.describe() + "), ImageIO as the fallback" : "ImageIO";
        String webp;
        if (!libWebpWanted) {
            webp = "TwelveMonkeys ImageIO";
        } else if (LibWebp.asked()) {
            webp = LibWebp.instance().map(w -> "libwebp (" + w.libraryName + ")").orElse("TwelveMonkeys ImageIO");
        } else {
            webp = "libwebp, loaded at the first WebP (TwelveMonkeys ImageIO if it is not installed)";
        }
        return jpeg + "; WebP: " + webp;
    }

    /** The DCT scaling factors available: the library's, or only {@link ScalingFactor#ONE} with ImageIO. */
    public List<ScalingFactor> scalingFactors() {
        TurboJpeg turbo = turbo();
        return turbo != null ? turbo.scalingFactors() : List.of(ScalingFactor.ONE);
    }

    /** Lends a session; close it to give it back. */
    public DecodeSession session() {
        if (closed) {
            throw new IllegalStateException("the image decoder is closed");
        }
        DecodeSession s = idle.poll();
        if (s == null) {
            s = new DecodeSession(this, turbo());
            created.incrementAndGet();
        }
        s.lend();
        return s;
    }

    /** Sessions made so far (at most the number of threads that decoded at once). */
    public int sessionsCreated() {
        return created.get();
    }

    void giveBack(DecodeSession s) {
        if (closed) {
            s.destroy();
            return;
        }
        idle.offer(s);
        // close() may have drained the queue between the check and the offer.
        if (closed && idle.remove(s)) {
            s.destroy();
        }
    }

    /** Frees the idle sessions now, and each lent one when it is given back. */
    @Override
    public void close() {
        closed = true;
        for (DecodeSession s; (s = idle.poll()) != null; ) {
            s.destroy();
        }
    }

    /**
     * Images decoded (or opened) so far with more pixels than {@link DecodeOptions#largePixels()}
     * (by default PIL's {@code MAX_IMAGE_PIXELS}, where PIL warns), though within the limit.
     */
    public long largeImages() {
        return largeImages.get();
    }

    /** {@link #checkSize(String, int, int, String, DecodeOptions)} with this decoder's options, counting large images. */
    void checkSize(String source, int width, int height, String format) {
        checkSize(source, width, height, format, options);
        long pixels = (long) width * height;
        if (pixels > options.largePixels() && largeImages.getAndIncrement() == 0) {
            LOG.log(System.Logger.Level.WARNING, source + ": the " + format + " image is " + width + "x" + height + " = "
                    + pixels + " pixels, over " + options.largePixels() + " (PIL's MAX_IMAGE_PIXELS, where PIL warns"
                    + " of a decompression bomb); decoded, as PIL does up to " + options.maxPixels()
                    + ". Logged once; ImageDecoder.largeImages() counts them");
        }
    }

    /** Refuses images over the pixel limit, before any memory is taken for them. */
    static void checkSize(String source, int width, int height, String format, DecodeOptions options) {
        if (width < 1 || height < 1) {
            throw new ImageDecodeException(source, "the " + format + " header gives a size of " + width + "x" + height);
        }
        long pixels = (long) width * height;
        if (pixels > options.maxPixels()) {
            throw new ImageDecodeException(source, "the " + format + " image is " + width + "x" + height + " = "
                    + pixels + " pixels, over the limit of " + options.maxPixels()
                    + " (a decompression bomb? raise DecodeOptions.maxPixels if the image is genuine)");
        }
    }
}
