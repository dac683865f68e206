package dev.stoker.cuda.image;

/**
 * One sample of a {@link GpuJpegDataset} on its own (its {@code get}): the JPEG's bytes, the
 * record the GPU resample reads, and the label. The loader's fill path writes the same into a
 * batch without this object.
 *
 * @param jpeg     the file's bytes
 * @param geometry the resample record's 19 words (the pixels' address and pitch still 0)
 * @param label    the class
 */
public record GpuJpegSample(byte[] jpeg, long[] geometry, long label) {}
