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
 * structs whose layout follows the library's ABI version). An animation's first frame, which is
 * what PIL gives, comes from libwebpdemux's {@code WebPAnimDecoder} (PIL's own way of reading
 * WebP) when {@code libwebpdemux.so.2} is there too; its structs are fixed within ABI major 1,
 * which the library checks.
 */
@SuppressWarnings("restricted") // the point of this class: binding a native library
final class LibWebp {
    /** Whether {@link #instance()} has been asked (the library loaded or found missing, or being so). */
    private static volatile boolean asked;

    /** The library, loaded when this holder is initialized: once, by the first {@link #instance()} call. */
    private static final class Holder {
        private static final System.Logger LOG = System.getLogger(LibWebp.class.getName());
        private static final Optional<LibWebp> INSTANCE = load();
    }

    final String libraryName;
    /** {@code int WebPGetInfo(const uint8_t* data, size_t size, int* width, int* height)}: 1 when the header is valid. */
    final MethodHandle getInfo;
    /**
     * {@code uint8_t* WebPDecodeRGBInto(const uint8_t* data, size_t size, uint8_t* out, size_t out_size, int stride)}:
     * NULL on any failure; never writes past {@code out_size}.
     */
    final MethodHandle decodeRgbInto;
    /** libwebpdemux's animation decoder, or null when that library is missing. */
    final Demux demux;

    /**
     * {@code WebPAnimDecoderOptionsInitInternal(options*, abi)}, {@code WebPAnimDecoderNewInternal(const
     * WebPData*, const options*, abi)}, {@code WebPAnimDecoderGetInfo(dec, WebPAnimInfo*)},
     * {@code WebPAnimDecoderGetNext(dec, uint8_t** buf, int* timestamp)}, {@code WebPAnimDecoderDelete(dec)}.
     */
    record Demux(String libraryName, MethodHandle optionsInit, MethodHandle newDecoder, MethodHandle getInfo,
                 MethodHandle getNext, MethodHandle delete) {
        /** WEBP_DEMUX_ABI_VERSION of libwebp 1.x: the library accepts any minor of major 1. */
        static final int ABI_VERSION = 0x0107;
        /** MODE_RGBA of WEBP_CSP_MODE: not premultiplied, as PIL asks for it. */
        static final int MODE_RGBA = 1;
    }

    private LibWebp(SymbolLookup lib, String libraryName, Demux demux) {
        this.libraryName = libraryName;
        Linker linker = Linker.nativeLinker();
        getInfo = linker.downcallHandle(find(lib, "WebPGetInfo"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
        decodeRgbInto = linker.downcallHandle(find(lib, "WebPDecodeRGBInto"),
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_INT));
        this.demux = demux;
    }

    private static Demux demux(SymbolLookup lib, String libraryName) {
        Linker linker = Linker.nativeLinker();
        return new Demux(libraryName,
                linker.downcallHandle(find(lib, "WebPAnimDecoderOptionsInitInternal"),
                        FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)),
                linker.downcallHandle(find(lib, "WebPAnimDecoderNewInternal"),
                        FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_INT)),
                linker.downcallHandle(find(lib, "WebPAnimDecoderGetInfo"), FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
                linker.downcallHandle(find(lib, "WebPAnimDecoderGetNext"),
                        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
                linker.downcallHandle(find(lib, "WebPAnimDecoderDelete"), FunctionDescriptor.ofVoid(ADDRESS)));
    }

    /** libwebpdemux beside libwebp, or null (animated WebP is then refused). */
    private static Demux loadDemux(String webpName) {
        String configured = System.getProperty("stoker.libwebpdemux.path");
        List<String> candidates = new ArrayList<>();
        if (configured != null && !configured.isBlank()) {
            candidates.add(configured);
        }
        candidates.addAll(webpName.endsWith(".dylib") ? List.of("libwebpdemux.2.dylib", "libwebpdemux.dylib")
                : List.of("libwebpdemux.so.2", "libwebpdemux.so"));
        for (String name : candidates) {
            try {
                return demux(SymbolLookup.libraryLookup(name, Arena.global()), name);
            } catch (Throwable e) {
                // next candidate
            }
        }
        return null;
    }

    /**
     * The library, or empty when it is not installed (or not wanted); the first call loads it
     * (the JVM initializes this class once, whichever threads ask at the same time) and logs which.
     */
    static Optional<LibWebp> instance() {
        asked = true;
        return Holder.INSTANCE;
    }

    /** Whether {@link #instance()} has been called, without loading the library. */
    static boolean asked() {
        return asked;
    }

    private static Optional<LibWebp> load() {
        if (Boolean.getBoolean("stoker.libwebp.disable")) {
            Holder.LOG.log(System.Logger.Level.INFO, "WebP decoder: TwelveMonkeys ImageIO (libwebp disabled by -Dstoker.libwebp.disable)");
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
                SymbolLookup lib = SymbolLookup.libraryLookup(name, Arena.global());
                LibWebp w = new LibWebp(lib, name, loadDemux(name));
                Holder.LOG.log(System.Logger.Level.INFO, "WebP decoder: libwebp (" + name + ")" + (w.demux != null
                        ? ", animations' first frames with " + w.demux.libraryName()
                        : "; animated WebP refused (libwebpdemux not found: apt-get install libwebpdemux2)"));
                return Optional.of(w);
            } catch (Throwable e) {
                why.append(name).append(": ").append(e.getMessage()).append("; ");
            }
        }
        Holder.LOG.log(System.Logger.Level.INFO, "WebP decoder: TwelveMonkeys ImageIO, pure Java (libwebp not found: " + why
                + "install it with apt-get install libwebp7 for PIL's exact pixels on lossy WebP, and speed)");
        return Optional.empty();
    }

    private static java.lang.foreign.MemorySegment find(SymbolLookup lib, String name) {
        return lib.find(name).orElseThrow(() -> new IllegalStateException("the library has no symbol " + name));
    }
}
