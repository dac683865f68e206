package dev.stoker.data;

/**
 * A sample of a {@link FillableMixedStreamingDataset}, with the source it was drawn from: that
 * source's {@code fill} writes it into the batch.
 *
 * @param source the source's position in the mixture
 * @param sample the sample as the source's stream yielded it
 */
public record MixedSample<T>(int source, T sample) {
}
