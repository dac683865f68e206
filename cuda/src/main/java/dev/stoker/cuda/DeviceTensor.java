package dev.stoker.cuda;

import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;

/**
 * A tensor in device memory, as raw facts another library can wrap without a copy: the device
 * pointer, the element type and the shape (dense, row-major). Valid until its
 * {@link DeviceBatch} is closed.
 *
 * @param pointer the device address of the first element
 * @param dtype   the element type
 * @param shape   the dimensions, outermost first
 * @param device  the CUDA device ordinal
 */
public record DeviceTensor(long pointer, DType dtype, Shape shape, int device) {
    public long byteSize() {
        return shape.elements() * dtype.byteSize();
    }

    @Override
    public String toString() {
        return "DeviceTensor(cuda:" + device + ", " + dtype + ", " + shape + ", 0x" + Long.toHexString(pointer) + ")";
    }
}
