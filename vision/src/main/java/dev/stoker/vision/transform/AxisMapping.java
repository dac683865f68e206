package dev.stoker.vision.transform;

/**
 * One axis of a {@link Geometry}'s mapping from output pixels to source pixels, as plain numbers:
 * for resamplers outside this package, such as the GPU's ({@code dev.stoker.cuda.image}), which must
 * compute exactly the coefficients this package's resampler does.
 *
 * <p>Output position {@code v} in {@code [imgStart, imgEnd)} is resampled pixel
 * {@code i = v - imgStart}, centred in the source at {@code origin + in0 + (i + shift + 0.5) * scale}
 * (PIL's {@code precompute_coeffs}); the filter reads source positions
 * {@code [origin, origin + inSize)} only. Positions outside {@code [imgStart, imgEnd)} are padding.
 *
 * @param origin   the first source position the filter may read
 * @param inSize   how many source positions it may read
 * @param in0      the offset of the first centre within the read range (before the half pixel)
 * @param scale    source pixels per output pixel (above 1 when shrinking)
 * @param shift    resampled pixels skipped before the first output one (a crop after the resize)
 * @param imgStart the first output position holding image
 * @param imgEnd   one past the last output position holding image
 * @param size     the output size along the axis
 */
public record AxisMapping(int origin, int inSize, double in0, double scale, int shift, int imgStart, int imgEnd,
                          int size) {

    /** The filter taps one output pixel reads along this axis: the bilinear filter widened by the scale. */
    public int maxTaps() {
        return (int) Math.ceil(Math.max(scale, 1.0)) * 2 + 1;
    }
}
