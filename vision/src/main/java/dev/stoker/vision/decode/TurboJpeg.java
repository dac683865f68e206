package dev.stoker.vision.decode;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * libjpeg-turbo's TurboJPEG API (the 2.x functions, also exported by 3.x) bound through the FFM
 * {@link Linker}: only the decompression calls Stoker uses, and, when the library is 3.x, the
 * calls that decode only a region ({@link TurboJpeg3}). Found at run time as the file named by
 * the system property {@code stoker.turbojpeg.path} or else the environment variable
 * {@code STOKER_TURBOJPEG} (a libjpeg-turbo 3 built or installed beside the system's 2.x), then
 * {@code libturbojpeg.so.0} (Debian and Ubuntu's {@code libturbojpeg0}), {@code libturbojpeg.so}.
 * {@code -Dstoker.turbojpeg.api=2} keeps to the 2.x functions with a 3.x library (to compare).
 *
 * <p>NOTE: a {@code tjhandle} is not thread-safe: {@link TurboJpegDecoder} gives each thread its
 * own. Every call here is a plain downcall (not {@code critical}): a decode takes about a
 * millisecond, too long to hold off the garbage collector's safepoints.
 */
@SuppressWarnings("restricted") // the point of this class: binding a native library
final class TurboJpeg {
    private static final System.Logger LOG = System.getLogger(TurboJpeg.class.getName());

    /** Pixel formats (enum TJPF). */
    static final int TJPF_RGB = 0;
    static final int TJPF_CMYK = 11;
    /** Colour spaces of the JPEG (enum TJCS). */
    static final int TJCS_RGB = 0;
    static final int TJCS_YCBCR = 1;
    static final int TJCS_GRAY = 2;
    static final int TJCS_CMYK = 3;
    static final int TJCS_YCCK = 4;
    /** Stop at the first warning (e.g. premature end of data) instead of finishing with grey. */
    static final int TJFLAG_STOPONWARNING = 8192;
    /** Refuse progressive JPEGs with an unreasonable number of scans (a CPU bomb). */
    static final int TJFLAG_LIMITSCANS = 32768;
    /** tjGetErrorCode: the last error was only a warning. */
    static final int TJERR_WARNING = 0;
    /** tjtransform.options: crop to the region given (on MCU boundaries), copy no markers. */
    static final int TJXOPT_CROP = 4;
    static final int TJXOPT_COPYNONE = 64;
    /** Size of struct tjtransform: tjregion r (4 ints), int op, int options, void* data, customFilter pointer. */
    static final long TJTRANSFORM_BYTES = 40;
    /** MCU width and height in pixels per subsampling (enum TJSAMP: 444, 422, 420, GRAY, 440, 411). */
    private static final int[] MCU_WIDTH = {8, 16, 16, 8, 8, 32};
    private static final int[] MCU_HEIGHT = {8, 8, 16, 8, 16, 8};

    private static final Optional<TurboJpeg> INSTANCE = load();

    final String libraryName;
    /** The 3.x functions, or null with a 2.x library (or {@code -Dstoker.turbojpeg.api=2}). */
    final TurboJpeg3 v3;
    /** Why the library named by property or environment was not loaded, or null. */
    private String namedFailure;
    final MethodHandle initDecompress;     // tjhandle tjInitDecompress(void)
    final MethodHandle decompressHeader3;  // int (tjhandle, const uchar*, ulong, int* w, int* h, int* subsamp, int* colorspace)
    final MethodHandle decompress2;        // int (tjhandle, const uchar*, ulong, uchar* dst, int w, int pitch, int h, int pf, int flags)
    final MethodHandle getErrorStr2;       // char* (tjhandle)
    final MethodHandle getErrorCode;       // int (tjhandle)
    final MethodHandle destroy;            // int (tjhandle)
    final MethodHandle initTransform;      // tjhandle tjInitTransform(void)
    final MethodHandle transform;          // int (tjhandle, const uchar*, ulong, int n, uchar** dst, ulong* dstSize, tjtransform*, int flags)
    final MethodHandle free;               // void tjFree(uchar*)
    private final List<ScalingFactor> scalingFactors;

    private TurboJpeg(SymbolLookup lib, String libraryName) throws Throwable {
        this.libraryName = libraryName;
        Linker linker = Linker.nativeLinker();
        initDecompress = linker.downcallHandle(find(lib, "tjInitDecompress"), FunctionDescriptor.of(ADDRESS));
        decompressHeader3 = linker.downcallHandle(find(lib, "tjDecompressHeader3"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
        decompress2 = linker.downcallHandle(find(lib, "tjDecompress2"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
        getErrorStr2 = linker.downcallHandle(find(lib, "tjGetErrorStr2"), FunctionDescriptor.of(ADDRESS, ADDRESS));
        getErrorCode = linker.downcallHandle(find(lib, "tjGetErrorCode"), FunctionDescriptor.of(JAVA_INT, ADDRESS));
        destroy = linker.downcallHandle(find(lib, "tjDestroy"), FunctionDescriptor.of(JAVA_INT, ADDRESS));
        initTransform = linker.downcallHandle(find(lib, "tjInitTransform"), FunctionDescriptor.of(ADDRESS));
        transform = linker.downcallHandle(find(lib, "tjTransform"), FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS,
                JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
        free = linker.downcallHandle(find(lib, "tjFree"), FunctionDescriptor.ofVoid(ADDRESS));
        MethodHandle getScalingFactors = linker.downcallHandle(find(lib, "tjGetScalingFactors"),
                FunctionDescriptor.of(ADDRESS, ADDRESS));
        this.scalingFactors = readScalingFactors(getScalingFactors);
        this.v3 = "2".equals(System.getProperty("stoker.turbojpeg.api")) ? null : TurboJpeg3.bind(lib).orElse(null);
    }

    /** Which API decodes, for reports: the 3.x one decodes only the crop. */
    String api() {
        return v3 != null ? "TurboJPEG 3 API: decodes only the crop"
                : "TurboJPEG 2 API: crops decoded whole or cut by lossless transform; libjpeg-turbo 3 would decode only the crop";
    }

    /** The library, its API, and why a library named by the user was not taken, for reports. */
    String describe() {
        return libraryName + ", " + api() + (namedFailure == null ? "" : "; " + namedFailure);
    }

    /** The library, or empty when it is not installed (or not wanted); the first call logs which. */
    static Optional<TurboJpeg> instance() {
        return INSTANCE;
    }

    /** The scaling factors the library can decode at directly (DCT scaling), largest first. */
    List<ScalingFactor> scalingFactors() {
        return scalingFactors;
    }

    private static Optional<TurboJpeg> load() {
        if (Boolean.getBoolean("stoker.turbojpeg.disable")) {
            LOG.log(System.Logger.Level.INFO, "JPEG decoder: the JDK's ImageIO (libturbojpeg disabled by -Dstoker.turbojpeg.disable)");
            return Optional.empty();
        }
        List<String> candidates = new ArrayList<>();
        String named = named();
        if (named != null) {
            candidates.add(named);
        }
        candidates.add("libturbojpeg.so.0");
        candidates.add("libturbojpeg.so");
        candidates.add("libturbojpeg.dylib");
        StringBuilder why = new StringBuilder();
        for (String name : candidates) {
            try {
                TurboJpeg t = new TurboJpeg(SymbolLookup.libraryLookup(name, Arena.global()), name);
                if (named != null && !name.equals(named)) {
                    t.namedFailure = "the library named by " + NAMED_BY + " was not loaded ("
                            + why.substring(0, why.length() - 2) + ")";
                    LOG.log(System.Logger.Level.WARNING, "JPEG decoder: " + t.namedFailure);
                }
                LOG.log(System.Logger.Level.INFO, "JPEG decoder: libjpeg-turbo's TurboJPEG (" + t.describe()
                        + "), with the JDK's ImageIO for what it cannot read");
                return Optional.of(t);
            } catch (Throwable e) {
                why.append(name).append(": ").append(e.getMessage()).append("; ");
            }
        }
        LOG.log(System.Logger.Level.INFO, "JPEG decoder: the JDK's ImageIO (libturbojpeg not found: " + why
                + "install it with apt-get install libturbojpeg0 for about 2.5x the speed)");
        return Optional.empty();
    }

    /** Where a user names the library: a system property, else an environment variable. */
    static final String NAMED_BY = "-Dstoker.turbojpeg.path or STOKER_TURBOJPEG";

    /** The library file the user named ({@value #NAMED_BY}), or null. */
    private static String named() {
        String property = System.getProperty("stoker.turbojpeg.path");
        if (property != null && !property.isBlank()) {
            return property;
        }
        String env = System.getenv("STOKER_TURBOJPEG");
        return env != null && !env.isBlank() ? env : null;
    }

    private static MemorySegment find(SymbolLookup lib, String name) {
        return lib.find(name).orElseThrow(() -> new IllegalStateException("the library has no symbol " + name));
    }

    private static List<ScalingFactor> readScalingFactors(MethodHandle getScalingFactors) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(JAVA_INT);
            MemorySegment array = (MemorySegment) getScalingFactors.invokeExact(count);
            int n = count.get(JAVA_INT, 0);
            if (array.equals(MemorySegment.NULL) || n <= 0 || n > 64) {
                return List.of(new ScalingFactor(1, 1));
            }
            // tjscalingfactor is struct { int num; int denom; }, a static array in the library.
            MemorySegment factors = array.reinterpret(8L * n);
            List<ScalingFactor> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int num = factors.get(JAVA_INT, 8L * i);
                int denom = factors.get(JAVA_INT, 8L * i + 4);
                if (num > 0 && denom > 0) {
                    out.add(new ScalingFactor(num, denom));
                }
            }
            out.sort((a, b) -> Double.compare(b.value(), a.value()));
            return List.copyOf(out);
        }
    }

    /** The MCU width of a JPEG of subsampling {@code tjsamp} (TJSAMP), or 0 when the library has none for it. */
    static int mcuWidth(int tjsamp) {
        return tjsamp >= 0 && tjsamp < MCU_WIDTH.length ? MCU_WIDTH[tjsamp] : 0;
    }

    /** The MCU height of a JPEG of subsampling {@code tjsamp}, or 0 when the library has none for it. */
    static int mcuHeight(int tjsamp) {
        return tjsamp >= 0 && tjsamp < MCU_HEIGHT.length ? MCU_HEIGHT[tjsamp] : 0;
    }

    /** The library's message for the last error on {@code handle}. */
    String errorMessage(MemorySegment handle) {
        try {
            MemorySegment s = (MemorySegment) getErrorStr2.invokeExact(handle);
            return s.equals(MemorySegment.NULL) ? "unknown error" : s.reinterpret(1024).getString(0);
        } catch (Throwable t) {
            return "unknown error (" + t + ")";
        }
    }

    /** Whether the last error on {@code handle} was a warning rather than a fatal error. */
    boolean lastErrorWasWarning(MemorySegment handle) {
        try {
            return (int) getErrorCode.invokeExact(handle) == TJERR_WARNING;
        } catch (Throwable t) {
            return false;
        }
    }
}
