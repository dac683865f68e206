package dev.stoker.vision.decode;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The region decode of libjpeg-turbo 3 ({@link TurboJpeg3}) for one {@link TurboJpegDecoder}: its
 * by-value structs, and the widening and trimming that make a region's pixels the whole decode's.
 * Used by one thread at a time, as its decoder.
 */
final class TurboJpegRegion {
    private final TurboJpeg3 v3;
    private final MemorySegment region;     // struct tjregion
    private final MemorySegment uncropped;  // TJUNCROPPED, all zero
    private final MemorySegment scaling;    // struct tjscalingfactor

    /** Structs in {@code arena}, the decoder's (closed with it). */
    TurboJpegRegion(TurboJpeg3 v3, Arena arena) {
        this.v3 = v3;
        this.region = arena.allocate(TurboJpeg3.REGION);
        this.uncropped = arena.allocate(TurboJpeg3.REGION);
        this.scaling = arena.allocate(TurboJpeg3.SCALING);
    }

    /**
     * Decodes at {@code scale}, on {@code handle} (which has just read the header), only the rows
     * and columns of the JPEG that hold the source region
     * {@code [left, left + width) x [top, top + height)}, through libjpeg-turbo 3's TurboJPEG API
     * ({@code tj3SetCroppingRegion}): rows above the region are entropy-decoded only, rows below
     * it not read at all, columns beside it entropy-decoded but not transformed. The region is
     * widened by a pixel each way (for the rounding of the scale) and by one iMCU left and right:
     * the library's left edge must fall on an iMCU, and the chroma upsampling at a region's edge
     * reads the iMCU beyond it. The region returned is without those iMCUs: its pixels are the
     * whole decode's at {@code scale}, bit for bit (RegionDecodeTest checks every subsampling and
     * scale).
     *
     * <p>Returns null where the whole decode is the way: a CMYK JPEG or an unknown subsampling,
     * a region that is the whole image, any warning or error of the library (the whole decode then
     * judges the data as the options say), and, with damaged files refused, a JPEG that does not end
     * with its end-of-image marker: the rows below the region are never read, so a file cut short
     * would otherwise pass. Damage inside the rows below a region goes unseen (the image is
     * accepted): the price of not reading them.
     */
    DecodedRegion decode(MemorySegment handle, MemorySegment input, TurboJpegDecoder.Header header, int left, int top,
                         int width, int height, ScalingFactor scale, NativeBuffer out, boolean allowTruncated)
            throws DecoderFailure {
        int mcu = TurboJpeg3.mcuWidth(header.subsampling());
        boolean cmyk = header.colorspace() == TurboJpeg.TJCS_CMYK || header.colorspace() == TurboJpeg.TJCS_YCCK;
        if (mcu == 0 || cmyk || (!allowTruncated && !endsWithEoi(input))) {
            return null;
        }
        int fullW = scale.scale(header.width());
        int fullH = scale.scale(header.height());
        int align = scale.scale(mcu);  // TJSCALED(tjMCUWidth[subsamp], scalingFactor)
        long num = scale.num();
        long denom = scale.denom();
        long sx0 = Math.clamp(Math.floorDiv(left * num, denom) - 1, 0, fullW - 1);
        long sy0 = Math.clamp(Math.floorDiv(top * num, denom) - 1, 0, fullH - 1);
        long sx1 = Math.ceilDiv(((long) left + width) * num, denom) + 1;
        long sy1 = Math.ceilDiv(((long) top + height) * num, denom) + 1;
        int x0 = (int) Math.max(0, (sx0 / align - 1) * align);
        int x1 = (int) Math.clamp(sx1 + align, x0 + 1, fullW);
        int y0 = (int) sy0;
        int y1 = (int) Math.clamp(sy1, y0 + 1, fullH);
        if (x0 == 0 && x1 == fullW && y0 == 0 && y1 == fullH) {
            return null;
        }
        int w = x1 - x0;
        int h = y1 - y0;
        int pitch = Math.multiplyExact(w, 3);
        MemorySegment dst = out.ensure(Math.multiplyExact((long) pitch, h));
        scaling.set(JAVA_INT, 0, scale.num());
        scaling.set(JAVA_INT, 4, scale.denom());
        region.set(JAVA_INT, 0, x0);
        region.set(JAVA_INT, 4, y0);
        region.set(JAVA_INT, 8, w);
        region.set(JAVA_INT, 12, h);
        try {
            // Every parameter the decode reads, each time: tjDecompress2 on the same handle sets them from its flags.
            boolean ok = (int) v3.set.invokeExact(handle, TurboJpeg3.TJPARAM_STOPONWARNING, 1) == 0
                    && (int) v3.set.invokeExact(handle, TurboJpeg3.TJPARAM_SCANLIMIT, JpegScans.MAX_SCANS) == 0
                    && (int) v3.set.invokeExact(handle, TurboJpeg3.TJPARAM_BOTTOMUP, 0) == 0
                    && (int) v3.set.invokeExact(handle, TurboJpeg3.TJPARAM_FASTUPSAMPLE, 0) == 0
                    && (int) v3.set.invokeExact(handle, TurboJpeg3.TJPARAM_FASTDCT, 0) == 0
                    && (int) v3.setScalingFactor.invokeExact(handle, scaling) == 0
                    && (int) v3.setCroppingRegion.invokeExact(handle, region) == 0
                    && (int) v3.decompress8.invokeExact(handle, input, input.byteSize(), dst, pitch, TurboJpeg.TJPF_RGB) == 0;
            if (!ok) {
                return null;
            }
        } catch (Throwable t) {
            throw DecoderFailure.of("tj3Decompress8 failed", t);
        } finally {
            try {
                // The next whole decode must not inherit the region (tjDecompress2 clears it too).
                int ignored = (int) v3.setCroppingRegion.invokeExact(handle, uncropped);
            } catch (Throwable t) {
                // Clearing a region does not fail: TJUNCROPPED is always accepted.
            }
        }
        // Only the columns asked for (and their pixel of margin) are the whole decode's: the iMCU
        // beyond each edge was decoded for the upsampling, not to be read. Rows are moved left in
        // place (a copy of the region, a few percent of its decode); the first row does not move.
        int keepLeft = (int) sx0;
        int keepWidth = (int) Math.min(sx1, fullW) - keepLeft;
        if (keepWidth != w) {
            long rowBytes = 3L * keepWidth;
            for (int y = 0; y < h; y++) {
                MemorySegment.copy(dst, (long) y * pitch + 3L * (keepLeft - x0), dst, y * rowBytes, rowBytes);
            }
        }
        DecodedImage image = new DecodedImage(dst.asSlice(0, 3L * keepWidth * h), keepWidth, h, scale, TurboJpegDecoder.NAME);
        return new DecodedRegion(image, keepLeft, y0, fullW, fullH);
    }

    /**
     * Whether the JPEG ends with its end-of-image marker (0xFFD9), allowing for up to 64 bytes of
     * padding or trailer after it. Entropy-coded data stuffs every 0xFF, so the pair is a marker.
     */
    static boolean endsWithEoi(MemorySegment jpeg) {
        long size = jpeg.byteSize();
        for (long i = size - 2; i >= Math.max(0, size - 66); i--) {
            if (jpeg.get(JAVA_BYTE, i) == (byte) 0xFF && jpeg.get(JAVA_BYTE, i + 1) == (byte) 0xD9) {
                return true;
            }
        }
        return false;
    }
}
