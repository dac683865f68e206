/**
 * JPEG decoding on the GPU, DALI's "mixed" way: the loader's workers read the files and draw each
 * image's crop and flip ({@link dev.stoker.cuda.image.GpuJpegDataset}); the device prefetcher's
 * stage decodes the batch with nvJPEG and resamples, flips and normalizes it with Stoker's kernel
 * ({@link dev.stoker.cuda.image.GpuJpegDecoder}), overlapping the step.
 */
package dev.stoker.cuda.image;
