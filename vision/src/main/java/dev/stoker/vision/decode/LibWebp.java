package dev.stoker.vision.decode;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * libwebp's simple decoding API bound through the FFM {@link Linker}: the two calls Stoker uses,
 * both stateless and thread-safe. Found at run time as {@code libwebp.so.7} (Debian and Ubuntu's
 * {@code libwebp7}), {@code libwebp.so}, or the path in the system property
 * {@code stoker.libwebp.path}; {@code -Dstoker.libwebp.disable=true} turns it off. Where it is
 * missing, WebP goes to the pure-Java TwelveMonkeys ImageIO plugin.
 *
 * <p>libwebp is the library PIL decodes WebP with, so its pixels are PIL's, lossy ones included.
 * Only ABI-stable entry points are bound ({@code WebPGetFeatures} and {@code WebPDecode} take
 * structs whose layout follows the library's ABI version).
 */
@SuppressWarnings("restricted") // the point of this class: binding a native library
final class LibWebp {
    private static final System.Logger LOG = System.getLogger(LibWebp.class.getName());
    private static final Optional<LibWebp> INSTANCE = load();

    final String libraryName;
    /** {@code int WebPGetInfo(const uint8_t* data, size_t size, int* width, int* height)}: 1 when the header is valid. */
    final MethodHandle getInfo;
    /**
     * {@code uint8_t* WebPDecodeRGBInto(const uint8_t* data, size_t size, uint8_t* out, size_t out_size, int stride)}:
     * NULL on any failure; never writes past {@code out_size}.
     */
    final MethodHandle decodeRgbInto;

    private LibWebp(SymbolLookup lib, String libraryName) {
        this.libraryName = libraryName;
        Linker linker = Linker.nativeLinker();
        getInfo = linker.downcallHandle(find(lib, "WebPGetInfo"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
        decodeRgbInto = linker.downcallHandle(find(lib, "WebPDecodeRGBInto"),
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_INT));
    }

    /** The library, or empty when it is not installed (or not wanted); the first call logs which. */
    static Optional<LibWebp> instance() {
        return INSTANCE;
    }

    private static Optional<LibWebp> load() {
        if (Boolean.getBoolean("stoker.libwebp.disable")) {
            LOG.log(System.Logger.Level.INFO, "WebP decoder: TwelveMonkeys ImageIO (libwebp disabled by -Dstoker.libwebp.disable)");
            return Optional.empty();
        }
        List<String> candidates = new ArrayList<>();
        String configured = System.getProperty("stoker.libwebp.path");
        if (configured != null && !configured.isBlank()) {
            candidates.add(configured);
        }
        candidates.add("libwebp.so.7");
        candidates.add("libwebp.so");
        candidates.add("libwebp.7.dylib");
        candidates.add("libwebp.dylib");
        StringBuilder why = new StringBuilder();
        for (String name : candidates) {
            try {
                LibWebp w = new LibWebp(SymbolLookup.libraryLookup(name, Arena.global()), name);
                LOG.log(System.Logger.Level.INFO, "WebP decoder: libwebp (" + name + ")");
                return Optional.of(w);
            } catch (Throwable e) {
                why.append(name).append(": ").append(e.getMessage()).append("; ");
            }
        }
        LOG.log(System.Logger.Level.INFO, "WebP decoder: TwelveMonkeys ImageIO, pure Java (libwebp not found: " + why
                + "install it with apt-get install libwebp7 for PIL's exact pixels on lossy WebP, and speed)");
        return Optional.empty();
    }

    private static java.lang.foreign.MemorySegment find(SymbolLookup lib, String name) {
        return lib.find(name).orElseThrow(() -> new IllegalStateException("the library has no symbol " + name));
    }
}
