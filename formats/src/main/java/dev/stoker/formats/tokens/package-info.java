/**
 * Flat token files (little-endian uint16 or uint32, no header), memory-mapped, as datasets of
 * training windows: {@link dev.stoker.formats.tokens.TokenFile},
 * {@link dev.stoker.formats.tokens.TokenWindowDataset} (input and target shifted by one, int64,
 * written straight into the batch), {@link dev.stoker.formats.tokens.WindowOffsets}.
 */
package dev.stoker.formats.tokens;
