/**
 * Images for training: encoded files in, normalized tensors written straight into the batch out.
 *
 * <ul>
 *   <li>{@link dev.stoker.vision.ImagePipeline}: decode + torchvision-style transforms + normalize,
 *       fused into one pass that writes a {@code (3, H, W)} slot; {@code train(224)} and
 *       {@code eval(224)} are torchvision's ImageNet recipes.</li>
 *   <li>{@link dev.stoker.vision.JpegDataset}: a dataset of encoded images (image folder, tar
 *       shards, LMDB) as a fillable dataset of {@link dev.stoker.vision.ImageSample}s.</li>
 *   <li>{@code decode}: libjpeg-turbo through the FFM API, ImageIO as the fallback.</li>
 *   <li>{@code transform}: the transforms, planned as one {@code Geometry} and rendered by a
 *       resampler that gives PIL's pixels.</li>
 * </ul>
 *
 * <p>NOTE: the resampler and the sharpness op use the Vector API when the JVM runs with
 * {@code --add-modules jdk.incubator.vector} (the {@code stoker} launcher and the build pass it);
 * without it plain loops give the same pixels, slower (about 4x for the resample).
 */
package dev.stoker.vision;
