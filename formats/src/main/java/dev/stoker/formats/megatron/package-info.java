/**
 * Megatron-LM and NeMo indexed datasets ({@code MMIDIDX} {@code .idx} beside a {@code .bin} of
 * tokens): {@link dev.stoker.formats.megatron.MegatronDataset} maps a pair and reads it as a
 * map-style dataset of sequences, with its documents; {@link dev.stoker.formats.megatron.MegatronWriter}
 * writes a pair byte for byte as Megatron's {@code IndexedDatasetBuilder} does.
 */
package dev.stoker.formats.megatron;
