package dev.stoker.vision.transform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import dev.stoker.vision.Fixtures;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The resampler against PIL's {@code img.crop(box).resize(size, BILINEAR)} on the same pixels. */
class ResamplerPilTest {
    static final int W = 61;
    static final int H = 47;

    static Stream<Arguments> cases() {
        return Fixtures.table("resize/cases.txt").stream().map(row -> Arguments.of((Object) row));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void matchesPil(String[] row) {
        int outW = Integer.parseInt(row[1]);
        int outH = Integer.parseInt(row[2]);
        int x0 = Integer.parseInt(row[3]);
        int y0 = Integer.parseInt(row[4]);
        int x1 = Integer.parseInt(row[5]);
        int y1 = Integer.parseInt(row[6]);
        byte[] expected = Fixtures.bytes("resize/" + row[0] + ".rgb");
        Geometry g = new Geometry(W, H);
        g.crop(new CropBox(y0, x0, y1 - y0, x1 - x0));
        g.resize(outH, outW);
        try (Arena arena = Arena.ofConfined()) {
            Tensor slot = Tensor.allocate(arena, DType.U8, Shape.of(3, outH, outW));
            Resampler.render(MemorySegment.ofArray(Fixtures.bytes("resize/source_61x47.rgb")), W, H, g,
                    Normalize.NONE, slot, new Scratch());
            assertThat(Fixtures.maxDiff(hwc(slot), expected)).as(row[0]).isZero();
        }
    }

    /** CHW u8 to HWC bytes. */
    static byte[] hwc(Tensor chw) {
        int h = (int) chw.shape().dim(1);
        int w = (int) chw.shape().dim(2);
        byte[] planes = chw.toByteArray();
        byte[] out = new byte[planes.length];
        for (int c = 0; c < 3; c++) {
            for (int i = 0; i < h * w; i++) {
                out[i * 3 + c] = planes[c * h * w + i];
            }
        }
        return out;
    }
}
