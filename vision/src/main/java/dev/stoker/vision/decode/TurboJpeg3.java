package dev.stoker.vision.decode;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * The few functions of libjpeg-turbo 3's TurboJPEG API that Stoker uses when the loaded library
 * has them: a cropping region and a scaling factor set on the decompressor, then one decode of
 * only the region ({@code jpeg_crop_scanline} and {@code jpeg_skip_scanlines} inside the
 * library). The libjpeg API has the same two functions, but its errors {@code longjmp} out of
 * the library, which cannot be bound through FFM; TurboJPEG catches them and returns -1.
 *
 * <p>Found by symbol: libjpeg-turbo 2.x (Debian 12 and 13's {@code libturbojpeg0}) has none of
 * them, and {@link TurboJpeg} then crops with the lossless transform as before.
 */
@SuppressWarnings("restricted") // binding a native library
final class TurboJpeg3 {
    /** TJPARAM values (enum TJPARAM, stable since 3.0; new ones are appended). */
    static final int TJPARAM_STOPONWARNING = 0;
    static final int TJPARAM_BOTTOMUP = 1;
    static final int TJPARAM_FASTUPSAMPLE = 9;
    static final int TJPARAM_FASTDCT = 10;
    static final int TJPARAM_SCANLIMIT = 13;
    /** struct tjregion { int x, y, w, h; }, passed by value. */
    static final StructLayout REGION = MemoryLayout.structLayout(JAVA_INT.withName("x"), JAVA_INT.withName("y"),
            JAVA_INT.withName("w"), JAVA_INT.withName("h"));
    /** struct tjscalingfactor { int num, denom; }, passed by value. */
    static final StructLayout SCALING = MemoryLayout.structLayout(JAVA_INT.withName("num"), JAVA_INT.withName("denom"));
    /** iMCU width per subsampling (TJSAMP: 444, 422, 420, GRAY, 440, 411, 441): tjMCUWidth. */
    private static final int[] MCU_WIDTH = {8, 16, 16, 8, 8, 32, 8};

    final MethodHandle set;                 // int tj3Set(tjhandle, int param, int value)
    final MethodHandle setScalingFactor;    // int tj3SetScalingFactor(tjhandle, tjscalingfactor)
    final MethodHandle setCroppingRegion;   // int tj3SetCroppingRegion(tjhandle, tjregion)
    final MethodHandle decompress8;         // int tj3Decompress8(tjhandle, const uchar*, size_t, uchar* dst, int pitch, int pf)

    private TurboJpeg3(Linker linker, MemorySegment set, MemorySegment scaling, MemorySegment cropping,
                       MemorySegment decompress) {
        this.set = linker.downcallHandle(set, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
        this.setScalingFactor = linker.downcallHandle(scaling, FunctionDescriptor.of(JAVA_INT, ADDRESS, SCALING));
        this.setCroppingRegion = linker.downcallHandle(cropping, FunctionDescriptor.of(JAVA_INT, ADDRESS, REGION));
        this.decompress8 = linker.downcallHandle(decompress,
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT, JAVA_INT));
    }

    /** The 3.x functions of {@code lib}, or empty when it is a 2.x library (or lacks any of them). */
    static Optional<TurboJpeg3> bind(SymbolLookup lib) {
        Optional<MemorySegment> set = lib.find("tj3Set");
        Optional<MemorySegment> scaling = lib.find("tj3SetScalingFactor");
        Optional<MemorySegment> cropping = lib.find("tj3SetCroppingRegion");
        Optional<MemorySegment> decompress = lib.find("tj3Decompress8");
        if (set.isEmpty() || scaling.isEmpty() || cropping.isEmpty() || decompress.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new TurboJpeg3(Linker.nativeLinker(), set.get(), scaling.get(), cropping.get(),
                decompress.get()));
    }

    /** The iMCU width of subsampling {@code tjsamp} at full size, or 0 when the library has none for it. */
    static int mcuWidth(int tjsamp) {
        return tjsamp >= 0 && tjsamp < MCU_WIDTH.length ? MCU_WIDTH[tjsamp] : 0;
    }
}
