/**
 * NumPy {@code .npy} files: {@link dev.stoker.formats.npy.NpyFile} maps one and views its data as
 * a tensor without copying, {@link dev.stoker.formats.npy.NpyDataset} indexes its first axis, and
 * {@link dev.stoker.formats.npy.NpyWriter} writes files NumPy reads. Headers are untrusted input:
 * every size is checked against the file before use, and every refusal names the file and why.
 */
package dev.stoker.formats.npy;
