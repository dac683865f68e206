package dev.stoker.formats.hdf5;

import dev.stoker.data.SampleLayout;
import dev.stoker.tensor.Tensor;
import io.jhdf.api.Dataset;
import java.lang.reflect.Array;
import java.nio.file.Path;

/**
 * An array read through jhdf's slicing, for the layouts Stoker does not read itself (compact
 * arrays, whose few bytes live in the object header): correct for anything jhdf reads, but some
 * 30x slower than the memory map, and serialised on the file. Chunked arrays are {@link ChunkedColumn}s.
 */
record JhdfColumn(Path file, SampleLayout.Field field, long rows, Dataset dataset, Object lock) implements Hdf5Column {

    @Override
    public boolean mapped() {
        return false;
    }

    @Override
    public void readRow(long row, Tensor dst) {
        try {
            read(row, dst);
        } catch (Hdf5FormatException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) { // jhdf's, or Java's from a corrupt header
            throw new Hdf5FormatException(file, row, where(), "cannot read row " + row
                    + " through jhdf: " + Hdf5Dataset.describe(e), e);
        }
    }

    private void read(long row, Tensor dst) {
        long[] shape = field.shape().toArray();
        long[] offset = new long[shape.length + 1];
        offset[0] = row;
        int[] count = new int[shape.length + 1];
        count[0] = 1;
        for (int d = 0; d < shape.length; d++) {
            count[d + 1] = Math.toIntExact(shape[d]);
        }
        Object slice;
        try {
            synchronized (lock) { // jhdf's readers share the file's channel and caches
                slice = dataset.getData(offset, count);
            }
        } catch (RuntimeException | StackOverflowError e) { // jhdf's, or Java's from a corrupt header
            throw new Hdf5FormatException(file, row, where(), "cannot read row " + row
                    + " through jhdf: " + Hdf5Dataset.describe(e), e);
        }
        long written;
        try {
            written = write(slice, dst, 0);
        } catch (RuntimeException e) { // more values than the row holds, or a type jhdf should not give
            throw new Hdf5FormatException(file, row, where(), "jhdf gave row " + row
                    + " in a form Stoker cannot copy: " + e, e);
        }
        if (written != field.shape().elements()) {
            throw new Hdf5FormatException(file, row, where(), "jhdf gave " + written
                    + " elements for row " + row + ", expected " + field.shape().elements(), null);
        }
    }

    /** Writes the leaves of a (nested) Java array into dst from flat position {@code at}; returns the count. */
    private static long write(Object array, Tensor dst, long at) {
        return switch (array) {
            case float[] a -> { for (int i = 0; i < a.length; i++) dst.setDouble(at + i, a[i]); yield a.length; }
            case double[] a -> { for (int i = 0; i < a.length; i++) dst.setDouble(at + i, a[i]); yield a.length; }
            case long[] a -> { for (int i = 0; i < a.length; i++) dst.setLong(at + i, a[i]); yield a.length; }
            case int[] a -> { for (int i = 0; i < a.length; i++) dst.setLong(at + i, a[i]); yield a.length; }
            case short[] a -> { for (int i = 0; i < a.length; i++) dst.setLong(at + i, a[i]); yield a.length; }
            case byte[] a -> { for (int i = 0; i < a.length; i++) dst.setLong(at + i, a[i]); yield a.length; }
            case Object[] a -> {
                long n = 0;
                for (Object inner : a) {
                    n += write(inner, dst, at + n);
                }
                yield n;
            }
            default -> throw new IllegalStateException("unexpected jhdf value " + array.getClass()
                    + (array.getClass().isArray() ? " of length " + Array.getLength(array) : ""));
        };
    }

    private String where() {
        return file + ": dataset '" + field.name() + "'";
    }
}
