package dev.stoker.vision;

import dev.stoker.tensor.Tensor;

/**
 * A decoded, transformed image and its label: what {@link JpegDataset#get} returns, and what
 * {@link dev.stoker.collate.DefaultCollate} stacks into {@code {"image": (n, 3, H, W), "label": (n) i64}}
 * (the same batch the fill path writes directly).
 *
 * @param image {@code (3, H, W)}, normalized
 * @param label the class index
 */
public record ImageSample(Tensor image, long label) {}
