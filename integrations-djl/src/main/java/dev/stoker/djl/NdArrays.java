package dev.stoker.djl;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Stoker tensors as DJL {@link NDArray}s, without a copy.
 *
 * <p>{@link #wrap} hands DJL a direct {@link ByteBuffer} over the tensor's own off-heap memory;
 * DJL's PyTorch engine makes a {@code torch::from_blob} tensor of it, so the NDArray and the
 * Stoker tensor are one and the same memory: a write through either is seen by the other, and
 * nothing is copied. (Another engine may copy; the NDArray is then merely equal.)
 *
 * <pre>{@code
 * for (Batch batch : loader) {
 *     // closed in reverse order: the NDArrays' manager first, then the batch that owns the memory
 *     try (batch; NDManager step = manager.newSubManager()) {
 *         NDArray images = NdArrays.wrap(step, batch.tensor("image"));   // (32, 3, 224, 224) float32
 *         NDArray mean = images.mean();                                  // reads Stoker's memory
 *     }
 * }
 * }</pre>
 *
 * <p>NOTE: the NDArray does not own the memory. It is valid while the tensor's memory is: for a
 * batch tensor, until the Stoker batch is closed and its buffers go back to the pool, where the
 * next batch overwrites them. Close the NDArray (or its manager) first, or let
 * {@link StokerDataset} tie the two together. To keep a value longer, copy it into a manager that
 * lives longer: {@code array.duplicate().attach(longLivedManager)}.
 */
public final class NdArrays {
    private NdArrays() {}

    /**
     * {@code tensor} as an NDArray of {@code manager}, sharing its memory; see the class comment.
     *
     * @throws IllegalArgumentException when the engine cannot hold the tensor's dtype, the manager
     *     is not on the CPU, the tensor is on the Java heap or read-only, or it is over 2 GiB
     */
    public static NDArray wrap(NDManager manager, Tensor tensor) {
        return wrap(manager, tensor, "the tensor");
    }

    /**
     * As {@link #wrap(NDManager, Tensor)}, with {@code what} naming the tensor in errors (e.g.
     * {@code "field 'image' of batch 3"}).
     */
    public static NDArray wrap(NDManager manager, Tensor tensor, String what) {
        Objects.requireNonNull(manager, "manager");
        Objects.requireNonNull(tensor, "tensor");
        Device device = manager.getDevice();
        if (!Device.Type.CPU.equals(device.getDeviceType())) {
            // torch::from_blob on another device copies the host memory there: not a view
            throw new IllegalArgumentException("cannot wrap " + what + " without a copy on " + device
                    + ": Stoker's memory is host memory. Wrap it with a CPU manager"
                    + " (manager.newSubManager(Device.cpu())) and move it with toDevice()");
        }
        DjlTypes.checkEngineTakes(manager.getEngine().getEngineName(), tensor.dtype(), what);
        MemorySegment segment = tensor.segment();
        if (!segment.isNative()) {
            throw new IllegalArgumentException(what + " lives on the Java heap; DJL shares only off-heap memory."
                    + " Copy it into a tensor from Tensor.allocate(arena, ...) first");
        }
        if (segment.isMapped()) {
            // torch reads a view in native code, where a file cut short under its map is a SIGBUS that
            // kills the JVM (a Java read gets a catchable InternalError)
            throw new IllegalArgumentException(what + " lies in a memory-mapped file; PyTorch would read the map"
                    + " in native code, where a file cut short under it kills the JVM. Copy it into a tensor from"
                    + " Tensor.allocate(arena, ...) first (a loader's batches are copies already)");
        }
        if (segment.isReadOnly()) {
            // torch may write into its inputs (in-place ops); a write to a read-only mapping kills the JVM
            throw new IllegalArgumentException(what + " is read-only (a memory-mapped file?); DJL could write"
                    + " into it. Copy it into writable memory first");
        }
        if (segment.byteSize() > Integer.MAX_VALUE || tensor.elements() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(what + " holds " + segment.byteSize() + " bytes (" + tensor.shape()
                    + "); DJL takes a buffer of at most 2 GiB. Use smaller batches");
        }
        // the engine reads the raw address; native order is what Stoker stores and what DJL's own buffers use
        ByteBuffer buffer = segment.asByteBuffer().order(ByteOrder.nativeOrder());
        return manager.create(buffer, new Shape(tensor.shape().toArray()), DjlTypes.toDjl(tensor.dtype()));
    }
}
