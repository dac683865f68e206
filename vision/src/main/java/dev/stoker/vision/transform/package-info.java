/**
 * torchvision's transforms ({@code RandomResizedCrop}, {@code Resize}, {@code CenterCrop},
 * {@code RandomHorizontalFlip}, {@code ToTensor} + {@code Normalize}) with its semantics and
 * defaults. The geometric ones only plan ({@link dev.stoker.vision.transform.Geometry}); the
 * {@link dev.stoker.vision.transform.Resampler} then reads the source pixels the output needs once,
 * with PIL's bilinear antialiased arithmetic, and writes normalized CHW values into the slot.
 * Random draws come from a per-sample {@link dev.stoker.vision.transform.SampleRandom}.
 */
package dev.stoker.vision.transform;
