package dev.stoker.cuda.lib;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * NVIDIA's JPEG decoder ({@code libnvjpeg}), bound through the FFM {@link Linker}: the calls of
 * its batched decode and no more. Handles and states are plain {@code long}s; the image package
 * owns them. Every call that can fail returns nvJPEG's status, which {@link #statusName} words.
 *
 * <p>Written by hand rather than taken from a binding library: the dozen calls here are all
 * Stoker needs, and the Java bindings that exist (JCuda, JavaCPP's presets) bring JNI glue and
 * their own copies of CUDA.
 */
public final class NvJpeg {
    public static final int BACKEND_DEFAULT = 0;
    public static final int BACKEND_HYBRID = 1;
    public static final int BACKEND_GPU_HYBRID = 2;
    /** The A100's, H100's and H200's JPEG engines: baseline JPEGs, decoded off the SMs. */
    public static final int BACKEND_HARDWARE = 3;
    /** Interleaved RGB, written to the image's first channel. */
    public static final int OUTPUT_RGBI = 5;
    /** Without it the engines' batched decoder holds back images of a batch to pipeline them with the next. */
    public static final int FLAG_HW_DECODE_NO_PIPELINE = 1;
    /** {@code nvjpegImage_t}: four channel pointers, then four pitches. */
    public static final long IMAGE_BYTES = 64;
    static final int STATUS_SUCCESS = 0;
    public static final int STATUS_ALLOCATOR_FAILURE = 5;

    private static final NativeLibraryFinder FINDER = new NativeLibraryFinder("nvJPEG", "STOKER_NVJPEG",
            List.of("libnvjpeg.so", "libnvjpeg.so.13", "libnvjpeg.so.12", "libnvjpeg.so.11"),
            List.of("nvidia/nvjpeg/lib", "nvidia/cu13/lib", "nvidia/cu12/lib", "torchvision.libs"), "libnvjpeg");

    private final String path;
    private final MethodHandle createEx, destroy, stateCreate, stateDestroy, getImageInfo, batchedInitialize,
            decodeBatched, decode, getProperty, hardwareInfo, createExV2, preAllocate;

    private NvJpeg(SymbolLookup lib, String path) {
        this.path = path;
        Linker linker = Linker.nativeLinker();
        createEx = bind(linker, lib, "nvjpegCreateEx", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS);
        destroy = bind(linker, lib, "nvjpegDestroy", JAVA_LONG);
        stateCreate = bind(linker, lib, "nvjpegJpegStateCreate", JAVA_LONG, ADDRESS);
        stateDestroy = bind(linker, lib, "nvjpegJpegStateDestroy", JAVA_LONG);
        getImageInfo = bind(linker, lib, "nvjpegGetImageInfo", JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS,
                ADDRESS);
        batchedInitialize = bind(linker, lib, "nvjpegDecodeBatchedInitialize", JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT,
                JAVA_INT);
        decodeBatched = bind(linker, lib, "nvjpegDecodeBatched", JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS,
                JAVA_LONG);
        decode = bind(linker, lib, "nvjpegDecode", JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS,
                JAVA_LONG);
        getProperty = bind(linker, lib, "nvjpegGetProperty", JAVA_INT, ADDRESS);
        hardwareInfo = lib.find("nvjpegGetHardwareDecoderInfo")
                .map(a -> linker.downcallHandle(a, FunctionDescriptor.of(JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS)))
                .orElse(null);
        preAllocate = lib.find("nvjpegDecodeBatchedPreAllocate")
                .map(a -> linker.downcallHandle(a, FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT,
                        JAVA_INT, JAVA_INT, JAVA_INT)))
                .orElse(null);
        // CUDA 12's extended allocators; older libraries get CUDA's own (which synchronize the device on free)
        createExV2 = lib.find("nvjpegCreateExV2")
                .map(a -> linker.downcallHandle(a, FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT,
                        ADDRESS)))
                .orElse(null);
    }

    private static MethodHandle bind(Linker linker, SymbolLookup lib, String name, MemoryLayout... args) {
        MemorySegment symbol = lib.find(name).orElseThrow(() -> new UnsatisfiedLinkError(
                "nvJPEG has no " + name + ": it is older than Stoker supports (CUDA 11)"));
        return linker.downcallHandle(symbol, FunctionDescriptor.of(JAVA_INT, args));
    }

    private static final class Holder {
        static final Object LOADED = load();
    }

    private static Object load() {
        List<String> tried = new ArrayList<>();
        try {
            Optional<NativeLibraryFinder.Found> found = FINDER.load(tried);
            if (found.isEmpty()) {
                return "nvJPEG was not found (set STOKER_NVJPEG to libnvjpeg.so's path; looked in " + tried.size()
                        + " places, CUDA's lib64 folders and the nvidia-nvjpeg and torchvision wheels among them)";
            }
            return new NvJpeg(found.get().lookup(), found.get().path());
        } catch (RuntimeException | LinkageError e) {
            return "nvJPEG could not be loaded: " + e.getMessage();
        }
    }

    /** nvJPEG, when this machine has it. */
    public static Optional<NvJpeg> library() {
        return Holder.LOADED instanceof NvJpeg n ? Optional.of(n) : Optional.empty();
    }

    /** Where nvJPEG was loaded from and its version, or why it was not. */
    public static String status() {
        return Holder.LOADED instanceof NvJpeg n ? "nvJPEG " + n.version() + " (" + n.path + ")" : (String) Holder.LOADED;
    }

    public String path() {
        return path;
    }

    /** The library's version, {@code major.minor.patch}. */
    public String version() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            StringBuilder s = new StringBuilder();
            for (int part = 0; part < 3; part++) { // libraryPropertyType: MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL
                int rc = (int) getProperty.invokeExact(part, v);
                s.append(part > 0 ? "." : "").append(rc == STATUS_SUCCESS ? String.valueOf(v.get(JAVA_INT, 0)) : "?");
            }
            return s.toString();
        } catch (Throwable t) {
            return "?";
        }
    }

    /** {@code nvjpegCreateEx} with the default allocators; the handle is written to {@code out}. Returns the status. */
    public int create(int backend, MemorySegment out) {
        return create(backend, 0, out);
    }

    /** Whether this library takes allocators of Stoker's ({@code nvjpegCreateExV2}). */
    public boolean takesAllocators() {
        return createExV2 != null;
    }

    /**
     * {@code nvjpegCreateExV2}: a handle whose device and pinned scratch memory comes from
     * {@code allocators}, with {@code flags} ({@code NVJPEG_FLAGS_*}). Returns the status.
     */
    public int create(int backend, NvJpegAllocators allocators, int flags, MemorySegment out) {
        if (createExV2 == null) throw new UnsupportedOperationException("nvJPEG " + version() + " has no nvjpegCreateExV2");
        try {
            return (int) createExV2.invokeExact(backend, allocators.deviceAllocator(), allocators.pinnedAllocator(), flags,
                    out);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code nvjpegCreateEx} with CUDA's allocators and {@code flags}. Returns the status. */
    public int create(int backend, int flags, MemorySegment out) {
        try {
            return (int) createEx.invokeExact(backend, MemorySegment.NULL, MemorySegment.NULL, flags, out);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public int destroy(long handle) {
        try {
            return (int) destroy.invokeExact(handle);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public int stateCreate(long handle, MemorySegment out) {
        try {
            return (int) stateCreate.invokeExact(handle, out);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public int stateDestroy(long state) {
        try {
            return (int) stateDestroy.invokeExact(state);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * {@code nvjpegGetImageInfo}: components, chroma subsampling and each component's size.
     * {@code info} receives, as ints: components, subsampling, then 4 widths, then 4 heights (10 ints).
     */
    public int imageInfo(long handle, MemorySegment data, MemorySegment info) {
        try {
            return (int) getImageInfo.invokeExact(handle, data, data.byteSize(), info, info.asSlice(4),
                    info.asSlice(8), info.asSlice(24));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public int batchedInitialize(long handle, long state, int batchSize, int cpuThreads, int format) {
        try {
            return (int) batchedInitialize.invokeExact(handle, state, batchSize, cpuThreads, format);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * {@code nvjpegDecodeBatched}: {@code data} holds the images' host addresses, {@code lengths}
     * their sizes (size_t), {@code images} one {@code nvjpegImage_t} each; work goes on {@code stream}.
     */
    public int decodeBatched(long handle, long state, MemorySegment data, MemorySegment lengths, MemorySegment images,
                             long stream) {
        try {
            return (int) decodeBatched.invokeExact(handle, state, data, lengths, images, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code nvjpegDecode}: one image, any backend's way. */
    public int decode(long handle, long state, MemorySegment data, int format, MemorySegment image, long stream) {
        try {
            return (int) decode.invokeExact(handle, state, data, data.byteSize(), format, image, stream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** 4:4:4, the chroma layout that needs the most memory: what a pre-allocation sized for any JPEG names. */
    public static final int CSS_444 = 0;

    /**
     * {@code nvjpegDecodeBatchedPreAllocate}: sizes the engines' buffers for batches of
     * {@code batchSize} images up to {@code width} x {@code height}, so that decoding does not
     * reallocate them. Returns the status; -1 where the library lacks the call.
     */
    public int preAllocate(long handle, long state, int batchSize, int width, int height, int subsampling, int format) {
        if (preAllocate == null) return -1;
        try {
            return (int) preAllocate.invokeExact(handle, state, batchSize, width, height, subsampling, format);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The hardware decoder's engines and cores per engine, or null where the library cannot say. */
    public int[] hardwareInfo(long handle) {
        if (hardwareInfo == null) return null;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment engines = a.allocate(JAVA_INT);
            MemorySegment cores = a.allocate(JAVA_INT);
            int rc = (int) hardwareInfo.invokeExact(handle, engines, cores);
            return rc == STATUS_SUCCESS ? new int[] {engines.get(JAVA_INT, 0), cores.get(JAVA_INT, 0)} : null;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** nvJPEG's name for a status, as its header spells it. */
    public static String statusName(int status) {
        return switch (status) {
            case 0 -> "NVJPEG_STATUS_SUCCESS";
            case 1 -> "NVJPEG_STATUS_NOT_INITIALIZED";
            case 2 -> "NVJPEG_STATUS_INVALID_PARAMETER";
            case 3 -> "NVJPEG_STATUS_BAD_JPEG";
            case 4 -> "NVJPEG_STATUS_JPEG_NOT_SUPPORTED";
            case 5 -> "NVJPEG_STATUS_ALLOCATOR_FAILURE";
            case 6 -> "NVJPEG_STATUS_EXECUTION_FAILED";
            case 7 -> "NVJPEG_STATUS_ARCH_MISMATCH";
            case 8 -> "NVJPEG_STATUS_INTERNAL_ERROR";
            case 9 -> "NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED";
            case 10 -> "NVJPEG_STATUS_INCOMPLETE_BITSTREAM";
            default -> "nvJPEG status " + status;
        };
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }
}
