/**
 * The image pipeline's steps and their machinery. Geometric steps
 * ({@link dev.stoker.vision.transform.ImageTransform}: torchvision's {@code RandomResizedCrop},
 * {@code Resize}, {@code CenterCrop}, {@code RandomHorizontalFlip}) only plan
 * ({@link dev.stoker.vision.transform.Geometry}); the {@link dev.stoker.vision.transform.Resampler}
 * then reads the source pixels the output needs once, with PIL's bilinear antialiased arithmetic,
 * and writes normalized CHW values into the slot ({@code ToTensor} + {@code Normalize}). When a
 * pipeline has {@link dev.stoker.vision.transform.PixelOp}s, the resample goes to a
 * {@link dev.stoker.vision.transform.Tile} first and they change it in place; a
 * {@link dev.stoker.vision.transform.TensorOp} then changes the normalized slot. Random draws come
 * from a per-sample {@link dev.stoker.vision.transform.SampleRandom}. The ops themselves live in
 * {@code dev.stoker.vision.augment} and {@code dev.stoker.vision.batch}.
 */
package dev.stoker.vision.transform;
