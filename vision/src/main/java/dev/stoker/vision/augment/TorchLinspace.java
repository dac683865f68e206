package dev.stoker.vision.augment;

/**
 * {@code torch.linspace(start, end, steps)[i]} in float32, to the bit as torch 1.13's CPU kernel
 * gives it on an AVX2 build (the magnitude tables of torchvision 0.14's auto-augment policies):
 * while 16 values remain, two vectors of 8, each lane {@code base + k * step}; the rest one by
 * one, each a fused multiply-add from the nearer end.
 */
final class TorchLinspace {
    private TorchLinspace() {}

    static float at(float start, float end, int steps, int i) {
        if (steps == 1) {
            return start;
        }
        float step = (end - start) / (steps - 1);
        int vectored = steps / 16 * 16;
        if (i < vectored) {
            int i0 = i / 8 * 8;
            return fromNearerEnd(start, end, step, steps, i0) + (i - i0) * step;
        }
        return fromNearerEnd(start, end, step, steps, i);
    }

    private static float fromNearerEnd(float start, float end, float step, int steps, int i) {
        return i < steps / 2 ? Math.fma(step, (float) i, start) : Math.fma(-step, (float) (steps - i - 1), end);
    }

    /** {@code 8 - (torch.arange(steps) / ((steps - 1) / levels)).round().int()}: the posterize bits of bin {@code i}. */
    static int posterizeBits(int steps, int levels, int i) {
        return 8 - (int) Math.rint((float) i / (float) ((steps - 1) / (double) levels));
    }
}
