package dev.stoker.vision.transform;

/**
 * A step that changes pixel values in place on the output {@link Tile}, after the geometric
 * steps' one resample and before {@code Normalize}: colour, blur, solarize, equalize, ... (the
 * ops of {@code dev.stoker.vision.augment}). Pixel ops run only when a pipeline has some; without
 * them the resample writes straight into the batch, as before.
 *
 * <p>Draws come from the sample's {@link SampleRandom}, after the geometric steps' draws and in
 * the pipeline's order, so a sample's augmentation depends only on (seed, epoch, sample).
 *
 * <pre>{@code
 * // An op of one's own: invert the image with probability p (torchvision's RandomInvert).
 * record RandomInvert(double p) implements PixelOp {
 *     public void apply(Tile tile, SampleRandom random) {
 *         if (random.nextDouble() < p) {
 *             byte[] px = tile.pixels();
 *             for (int i = 0; i < tile.length(); i++) {
 *                 px[i] = (byte) ~px[i];
 *             }
 *         }
 *     }
 * }
 * ImagePipeline.builder().add(new RandomResizedCrop(224)).add(new RandomInvert(0.2)).build();
 * }</pre>
 *
 * <p>Implementations are shared by the worker threads: keep them immutable (records are ideal).
 */
public interface PixelOp {

    /** Changes {@code tile} in place, drawing from {@code random} (null only when the op is not random). */
    void apply(Tile tile, SampleRandom random);

    /** Whether the op draws random numbers; by default it does. */
    default boolean isRandom() {
        return true;
    }
}
