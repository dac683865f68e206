package dev.stoker.data;

import dev.stoker.tensor.Tensor;

/**
 * One sample of a {@link SyntheticDataset}: a noise image and a class label. The default collate
 * turns a list of them into {@code {"image": (n, ...) tensor, "label": (n,) i64 tensor}}.
 *
 * @param image a heap-backed tensor of the dataset's shape and dtype
 * @param label a class in {@code [0, numClasses)}
 */
public record SyntheticSample(Tensor image, long label) {}
