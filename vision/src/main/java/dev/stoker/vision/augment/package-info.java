/**
 * torchvision's augmentations for training (0.14's parameters and defaults): the pixel ops
 * ({@link dev.stoker.vision.transform.PixelOp}: {@code ColorJitter}, {@code RandomGrayscale},
 * {@code GaussianBlur}, {@code RandomSolarize}, {@code RandomPosterize},
 * {@code RandomAutocontrast}, {@code RandomEqualize}, {@code RandomInvert}, {@code RandomAdjustSharpness}, {@code RandomVerticalFlip},
 * {@code TrivialAugmentWide}, {@code RandAugment}, {@code AutoAugment}, {@code RandomRotation}, {@code RandomAffine}, {@code RandomPerspective}, {@code AugMix}) that change the 8-bit output tile in place, and
 * {@code RandomErasing} on the normalized slot. {@link dev.stoker.vision.augment.Adjust} holds
 * their functional forms, with Pillow's arithmetic, and {@link dev.stoker.vision.augment.Warp}
 * the policies' shear, translate and rotate. {@code AugMix} runs its ops with torchvision's
 * tensor arithmetic rather than Pillow's, as torchvision does. Random draws come from the sample's
 * {@link dev.stoker.vision.transform.SampleRandom}.
 */
package dev.stoker.vision.augment;
