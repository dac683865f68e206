/**
 * Packing for fine-tuning: whole examples packed into rows of a fixed length by
 * first-fit-decreasing over seeded windows of examples ({@link dev.stoker.packing.PackedDataset}),
 * with the labels, position ids and {@code cu_seqlens} that variable-length attention needs
 * ({@link dev.stoker.packing.PackedCollate}). The packing is a pure function of the lengths, the
 * settings, the seed and the window, so a row is computed from its window alone, and rows shuffle,
 * resume and split across ranks like the samples of any map-style dataset.
 *
 * <pre>{@code
 * PackedDataset rows = PackedDataset.builder(examples, lengths, 2048).seed(42).build();
 * DataLoader<PackedRow> loader = DataLoader.builder(rows).batchSize(8).shuffle(true).seed(42)
 *         .collate(new PackedCollate()).build();
 * }</pre>
 */
package dev.stoker.packing;
