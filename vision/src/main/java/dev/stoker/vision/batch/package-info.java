/**
 * Steps on the assembled batch ({@link dev.stoker.vision.batch.BatchOp}): torchvision
 * {@code transforms.v2}'s {@code MixUp} and {@code CutMix}, chosen per batch by
 * {@code RandomChoice}, with one-hot {@link dev.stoker.vision.batch.Targets} mixed alongside the
 * images. Draws are keyed by (seed, epoch, batch index).
 */
package dev.stoker.vision.batch;
