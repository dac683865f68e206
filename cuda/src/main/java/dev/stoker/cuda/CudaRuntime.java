package dev.stoker.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * The CUDA runtime API ({@code libcudart}), bound through the FFM {@link Linker}: no JNI, no
 * CUDA at build time. Only the calls a data loader needs: devices, page-locked host memory,
 * device memory, streams, events, asynchronous copies, and loading a small kernel from PTX.
 *
 * <p>Device pointers, streams and events are plain {@code long} handles here; the classes around
 * this one ({@link CudaStream}, {@link CudaEvent}, {@link DeviceBuffer}) own them. Every failing
 * call throws a {@link CudaException} naming the call and CUDA's own words for the error.
 *
 * <p>NOTE: the runtime keeps a current device per thread; a thread that was not the one to call
 * {@link #setDevice} works on device 0. Classes that start threads set the device in each.
 */
public final class CudaRuntime {
    public static final int MEMCPY_HOST_TO_DEVICE = 1;
    public static final int MEMCPY_DEVICE_TO_HOST = 2;
    public static final int MEMCPY_DEVICE_TO_DEVICE = 3;
    static final int ERROR_NOT_READY = 600;
    static final int HOST_ALLOC_PORTABLE = 0x01;
    static final int HOST_REGISTER_PORTABLE = 0x01;
    static final int STREAM_NON_BLOCKING = 0x01;
    static final int EVENT_DISABLE_TIMING = 0x02;
    private static final int ATTR_MULTIPROCESSORS = 16;
    private static final int ATTR_ASYNC_ENGINES = 40;
    private static final int ATTR_CC_MAJOR = 75;
    private static final int ATTR_CC_MINOR = 76;
    private static final long DEVICE_PROP_BYTES = 4096; // larger than cudaDeviceProp in any CUDA so far
    private static final long TOTAL_MEM_OFFSET = 288;   // after name[256], uuid[16], luid[8], mask (4) + padding
    /** CUDA's {@code dim3}: three unsigned ints, passed by value. */
    private static final StructLayout DIM3 = MemoryLayout.structLayout(JAVA_INT, JAVA_INT, JAVA_INT);

    private final String libraryPath;
    private final MethodHandle getDeviceCount, setDevice, deviceGetAttribute, getDeviceProperties, memGetInfo;
    private final MethodHandle driverGetVersion, runtimeGetVersion, getErrorName, getErrorString, deviceSynchronize;
    private final MethodHandle hostAlloc, freeHost, hostRegister, hostUnregister, malloc, free;
    private final MethodHandle memcpy, memcpyAsync, memsetAsync;
    private final MethodHandle streamCreate, streamDestroy, streamSynchronize, streamWaitEvent;
    private final MethodHandle eventCreate, eventRecord, eventSynchronize, eventQuery, eventElapsed, eventDestroy;
    private final MethodHandle libraryLoadData, libraryGetKernel, libraryUnload, launchKernel;

    CudaRuntime(SymbolLookup lib, String libraryPath) {
        this.libraryPath = libraryPath;
        Linker linker = Linker.nativeLinker();
        Binder b = new Binder(linker, lib);
        getDeviceCount = b.bind("cudaGetDeviceCount", ADDRESS);
        setDevice = b.bind("cudaSetDevice", JAVA_INT);
        deviceGetAttribute = b.bind("cudaDeviceGetAttribute", ADDRESS, JAVA_INT, JAVA_INT);
        getDeviceProperties = b.bind("cudaGetDeviceProperties", ADDRESS, JAVA_INT);
        memGetInfo = b.bind("cudaMemGetInfo", ADDRESS, ADDRESS);
        driverGetVersion = b.bind("cudaDriverGetVersion", ADDRESS);
        runtimeGetVersion = b.bind("cudaRuntimeGetVersion", ADDRESS);
        deviceSynchronize = b.bind("cudaDeviceSynchronize");
        getErrorName = linker.downcallHandle(b.find("cudaGetErrorName"), FunctionDescriptor.of(ADDRESS, JAVA_INT));
        getErrorString = linker.downcallHandle(b.find("cudaGetErrorString"), FunctionDescriptor.of(ADDRESS, JAVA_INT));
        hostAlloc = b.bind("cudaHostAlloc", ADDRESS, JAVA_LONG, JAVA_INT);
        freeHost = b.bind("cudaFreeHost", JAVA_LONG);
        hostRegister = b.bind("cudaHostRegister", ADDRESS, JAVA_LONG, JAVA_INT);
        hostUnregister = b.bind("cudaHostUnregister", ADDRESS);
        malloc = b.bind("cudaMalloc", ADDRESS, JAVA_LONG);
        free = b.bind("cudaFree", JAVA_LONG);
        memcpy = b.bind("cudaMemcpy", JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT);
        memcpyAsync = b.bind("cudaMemcpyAsync", JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG);
        memsetAsync = b.bind("cudaMemsetAsync", JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG);
        streamCreate = b.bind("cudaStreamCreateWithFlags", ADDRESS, JAVA_INT);
        streamDestroy = b.bind("cudaStreamDestroy", JAVA_LONG);
        streamSynchronize = b.bind("cudaStreamSynchronize", JAVA_LONG);
        streamWaitEvent = b.bind("cudaStreamWaitEvent", JAVA_LONG, JAVA_LONG, JAVA_INT);
        eventCreate = b.bind("cudaEventCreateWithFlags", ADDRESS, JAVA_INT);
        eventRecord = b.bind("cudaEventRecord", JAVA_LONG, JAVA_LONG);
        eventSynchronize = b.bind("cudaEventSynchronize", JAVA_LONG);
        eventQuery = b.bind("cudaEventQuery", JAVA_LONG);
        eventElapsed = b.bind("cudaEventElapsedTime", ADDRESS, JAVA_LONG, JAVA_LONG);
        eventDestroy = b.bind("cudaEventDestroy", JAVA_LONG);
        libraryLoadData = b.bindOptional("cudaLibraryLoadData",
                ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT);
        libraryGetKernel = b.bindOptional("cudaLibraryGetKernel", ADDRESS, JAVA_LONG, ADDRESS);
        libraryUnload = b.bindOptional("cudaLibraryUnload", JAVA_LONG);
        launchKernel = b.bindOptional("cudaLaunchKernel", JAVA_LONG, DIM3, DIM3, ADDRESS, JAVA_LONG, JAVA_LONG);
    }

    /** Binds functions that return {@code cudaError_t}. */
    private record Binder(Linker linker, SymbolLookup lib) {
        MemorySegment find(String name) {
            return lib.find(name).orElseThrow(() -> new UnsatisfiedLinkError(
                    "the CUDA runtime has no " + name + ": it is older than Stoker supports (CUDA 11.0)"));
        }

        MethodHandle bind(String name, MemoryLayout... args) {
            return linker.downcallHandle(find(name), FunctionDescriptor.of(JAVA_INT, args));
        }

        MethodHandle bindOptional(String name, MemoryLayout... args) {
            return lib.find(name).map(a -> linker.downcallHandle(a, FunctionDescriptor.of(JAVA_INT, args))).orElse(null);
        }
    }

    /** Where the library was loaded from. */
    public String libraryPath() {
        return libraryPath;
    }

    // ---- errors

    /** CUDA's name for an error code, e.g. {@code cudaErrorNoDevice}. */
    public String errorName(int code) {
        try {
            MemorySegment s = (MemorySegment) getErrorName.invokeExact(code);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "cudaError " + code;
        }
    }

    /** CUDA's description of an error code, e.g. "no CUDA-capable device is detected". */
    public String errorString(int code) {
        try {
            MemorySegment s = (MemorySegment) getErrorString.invokeExact(code);
            return s.reinterpret(1024).getString(0);
        } catch (Throwable t) {
            return "unknown error";
        }
    }

    private void check(int rc, String call) {
        if (rc != 0) {
            throw new CudaException(call + " failed: " + errorName(rc) + " (" + errorString(rc) + ")", rc);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }

    // ---- devices

    /** The number of devices, or 0 with {@code reason} set when the driver reports none. */
    int deviceCountOrZero(StringBuilder reason) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            int rc = (int) getDeviceCount.invokeExact(out);
            if (rc != 0) {
                reason.append(errorName(rc)).append(": ").append(errorString(rc));
                return 0;
            }
            return out.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public int deviceCount() {
        StringBuilder reason = new StringBuilder();
        int n = deviceCountOrZero(reason);
        if (n == 0 && !reason.isEmpty()) {
            throw new CudaException("cudaGetDeviceCount failed: " + reason, -1);
        }
        return n;
    }

    public void setDevice(int device) {
        try {
            check((int) setDevice.invokeExact(device), "cudaSetDevice(" + device + ")");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private int attribute(int attr, int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            check((int) deviceGetAttribute.invokeExact(out, attr, device), "cudaDeviceGetAttribute(" + attr + ")");
            return out.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Name, memory and capabilities of a device. */
    public DeviceInfo deviceInfo(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment prop = a.allocate(DEVICE_PROP_BYTES, 16);
            check((int) getDeviceProperties.invokeExact(prop, device), "cudaGetDeviceProperties(" + device + ")");
            String name = prop.getString(0);
            long total = prop.get(JAVA_LONG, TOTAL_MEM_OFFSET);
            return new DeviceInfo(device, name, total,
                    attribute(ATTR_CC_MAJOR, device) + "." + attribute(ATTR_CC_MINOR, device),
                    attribute(ATTR_MULTIPROCESSORS, device), attribute(ATTR_ASYNC_ENGINES, device));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Free and total device memory of the current device, in bytes: {@code [free, total]}. */
    public long[] memoryInfo() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment free = a.allocate(JAVA_LONG);
            MemorySegment total = a.allocate(JAVA_LONG);
            check((int) memGetInfo.invokeExact(free, total), "cudaMemGetInfo");
            return new long[] {free.get(JAVA_LONG, 0), total.get(JAVA_LONG, 0)};
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Versions as CUDA encodes them (1000 × major + 10 × minor): {@code [driver, runtime]}. */
    public int[] versions() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment d = a.allocate(JAVA_INT);
            MemorySegment r = a.allocate(JAVA_INT);
            check((int) driverGetVersion.invokeExact(d), "cudaDriverGetVersion");
            check((int) runtimeGetVersion.invokeExact(r), "cudaRuntimeGetVersion");
            return new int[] {d.get(JAVA_INT, 0), r.get(JAVA_INT, 0)};
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public void deviceSynchronize() {
        try {
            check((int) deviceSynchronize.invokeExact(), "cudaDeviceSynchronize");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- memory

    /** {@code cudaHostAlloc}: page-locked host memory, portable across contexts. Returns the address. */
    public long hostAlloc(long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) hostAlloc.invokeExact(out, bytes, HOST_ALLOC_PORTABLE), "cudaHostAlloc(" + bytes + " bytes)");
            return out.get(JAVA_LONG, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public void freeHost(long address) {
        try {
            check((int) freeHost.invokeExact(address), "cudaFreeHost");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code cudaHostRegister}: page-locks memory that already exists, such as a pooled buffer. */
    public void hostRegister(MemorySegment segment) {
        try {
            check((int) hostRegister.invokeExact(segment, segment.byteSize(), HOST_REGISTER_PORTABLE),
                    "cudaHostRegister(" + segment.byteSize() + " bytes)");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public void hostUnregister(MemorySegment segment) {
        try {
            check((int) hostUnregister.invokeExact(segment), "cudaHostUnregister");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code cudaMalloc} on the current device; returns the device pointer. */
    public long malloc(long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) malloc.invokeExact(out, bytes), "cudaMalloc(" + bytes + " bytes)");
            return out.get(JAVA_LONG, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public void free(long devicePointer) {
        try {
            check((int) free.invokeExact(devicePointer), "cudaFree");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A synchronous copy; {@code kind} is one of the {@code MEMCPY_*} constants. */
    public void memcpy(long dst, long src, long bytes, int kind) {
        try {
            check((int) memcpy.invokeExact(dst, src, bytes, kind), "cudaMemcpy(" + bytes + " bytes)");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** An asynchronous copy on {@code stream}; from pageable host memory CUDA stages it and it blocks. */
    public void memcpyAsync(long dst, long src, long bytes, int kind, long stream) {
        try {
            check((int) memcpyAsync.invokeExact(dst, src, bytes, kind, stream), "cudaMemcpyAsync(" + bytes + " bytes)");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public void memsetAsync(long dst, int value, long bytes, long stream) {
        try {
            check((int) memsetAsync.invokeExact(dst, value, bytes, stream), "cudaMemsetAsync(" + bytes + " bytes)");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- streams and events

    /** A stream that does not wait on the legacy default stream. */
    public long streamCreate() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) streamCreate.invokeExact(out, STREAM_NON_BLOCKING), "cudaStreamCreateWithFlags");
            return out.get(JAVA_LONG, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public void streamDestroy(long stream) {
        try {
            check((int) streamDestroy.invokeExact(stream), "cudaStreamDestroy");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public void streamSynchronize(long stream) {
        try {
            check((int) streamSynchronize.invokeExact(stream), "cudaStreamSynchronize");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Makes later work on {@code stream} wait until {@code event} has fired; the host does not wait. */
    public void streamWaitEvent(long stream, long event) {
        try {
            check((int) streamWaitEvent.invokeExact(stream, event, 0), "cudaStreamWaitEvent");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** An event; with {@code timing} false it is cheaper and cannot be used for elapsed times. */
    public long eventCreate(boolean timing) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) eventCreate.invokeExact(out, timing ? 0 : EVENT_DISABLE_TIMING), "cudaEventCreateWithFlags");
            return out.get(JAVA_LONG, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public void eventRecord(long event, long stream) {
        try {
            check((int) eventRecord.invokeExact(event, stream), "cudaEventRecord");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public void eventSynchronize(long event) {
        try {
            check((int) eventSynchronize.invokeExact(event), "cudaEventSynchronize");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** True when all work before the event's record has finished; never blocks. */
    public boolean eventQuery(long event) {
        try {
            int rc = (int) eventQuery.invokeExact(event);
            if (rc == ERROR_NOT_READY) return false;
            check(rc, "cudaEventQuery");
            return true;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Milliseconds between two recorded timing events. */
    public float eventElapsedMillis(long start, long end) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_FLOAT);
            check((int) eventElapsed.invokeExact(out, start, end), "cudaEventElapsedTime");
            return out.get(JAVA_FLOAT, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public void eventDestroy(long event) {
        try {
            check((int) eventDestroy.invokeExact(event), "cudaEventDestroy");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- kernels from PTX (CUDA 12.0 and later)

    boolean canLoadKernels() {
        return libraryLoadData != null && libraryGetKernel != null && launchKernel != null;
    }

    /** Loads PTX or a cubin and returns the library handle. */
    long libraryLoad(MemorySegment code) {
        requireKernels();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) libraryLoadData.invokeExact(out, code, MemorySegment.NULL, MemorySegment.NULL, 0,
                    MemorySegment.NULL, MemorySegment.NULL, 0), "cudaLibraryLoadData");
            return out.get(JAVA_LONG, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    long libraryKernel(long library, String name) {
        requireKernels();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            check((int) libraryGetKernel.invokeExact(out, library, a.allocateFrom(name)), "cudaLibraryGetKernel(" + name + ")");
            return out.get(JAVA_LONG, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    void libraryUnload(long library) {
        try {
            check((int) libraryUnload.invokeExact(library), "cudaLibraryUnload");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Launches a kernel whose parameters are all 64-bit values, on a one-dimensional grid. */
    void launch(long kernel, int gridX, int blockX, long stream, long... params) {
        launch(kernel, new int[] {gridX, 1, 1}, new int[] {blockX, 1, 1}, stream, params);
    }

    /** Launches a kernel whose parameters are all 64-bit values; {@code grid} and {@code block} are x, y, z. */
    void launch(long kernel, int[] grid, int[] block, long stream, long... params) {
        requireKernels();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment g = a.allocate(DIM3);
            MemorySegment b = a.allocate(DIM3);
            for (int i = 0; i < 3; i++) {
                g.setAtIndex(JAVA_INT, i, grid[i]);
                b.setAtIndex(JAVA_INT, i, block[i]);
            }
            MemorySegment values = a.allocate(JAVA_LONG, Math.max(1, params.length));
            MemorySegment pointers = a.allocate(ADDRESS, Math.max(1, params.length));
            for (int i = 0; i < params.length; i++) {
                values.setAtIndex(JAVA_LONG, i, params[i]);
                pointers.setAtIndex(ADDRESS, i, values.asSlice(i * 8L, 8));
            }
            check((int) launchKernel.invokeExact(kernel, g, b, pointers, 0L, stream), "cudaLaunchKernel");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private void requireKernels() {
        if (!canLoadKernels()) {
            throw new UnsupportedOperationException("loading kernels needs CUDA 12.0 or later; " + libraryPath + " is older");
        }
    }
}
