/**
 * Samplers: which dataset indices an epoch visits and in what order, with PyTorch's semantics
 * ({@code torch.utils.data.sampler} and {@code DistributedSampler}) and {@code long} indices, so
 * datasets of more than 2^31 samples work. No sampler builds anything proportional to the dataset
 * size; shuffles are computed position by position with a {@link dev.stoker.sampler.FeistelPermutation}.
 * The length-aware batch samplers ({@link dev.stoker.sampler.LengthGroupedBatchSampler},
 * {@link dev.stoker.sampler.TokenBudgetBatchSampler}) are the exception: they are given every
 * sample's length and keep one epoch's order, four bytes a sample each.
 *
 * <p>Every order is a pure function of the sampler's settings (seed, and for distributed sampling
 * rank and world size) and the epoch, and is specified exactly so that it can be reproduced:
 * <ul>
 *   <li>Keys and streams come from SplitMix64 ({@code mix64}, {@code γ = 0x9E3779B97F4A7C15}):
 *       {@code mix(seed, epoch, w...) : h = mix64(seed + γ); h = mix64((h ^ epoch) + γ);
 *       h = mix64((h ^ w) + γ) per further word}.
 *   <li>Shuffles without replacement: the 8-round Feistel network over the next power of two with
 *       cycle walking described on {@link dev.stoker.sampler.FeistelPermutation}, keyed by
 *       {@code mix(seed, epoch, pass)}.
 *   <li>Draws with replacement: output {@code i} of the SplitMix64 stream whose state starts at
 *       {@code mix(seed, epoch)} ({@code mix64(s + (i+1)·γ)}), bounded without bias by Lemire's
 *       method; weighted draws add Vose's alias method.
 *   <li>Weighted draws without replacement: Efraimidis–Spirakis exponential keys.
 *   <li>Mixtures of sources: per source, full passes and then the first positions of a
 *       permutation keyed by {@code mix(seed, epoch, source, 1)}; the whole list shuffled by the
 *       permutation keyed by {@code mix(seed, epoch)} ({@link dev.stoker.sampler.MixtureSampler}).
 *   <li>Length-grouped orders: the permutation keyed by {@code mix(seed, epoch, 0)}, cut into
 *       mega-batches, each sorted longest first ({@link dev.stoker.sampler.LengthGroupedOrder});
 *       token-budget batches: lengths sorted with ties in that permutation's order, the batches
 *       shuffled by the permutation keyed by {@code mix(seed, epoch, 1)}.
 * </ul>
 *
 * <pre>{@code
 * Sampler s = DistributedSampler.builder(dataset.size()).numReplicas(8).rank(rank).seed(42).build();
 * BatchSampler batches = BatchSampler.of(s, 256, true);
 * }</pre>
 */
package dev.stoker.sampler;
