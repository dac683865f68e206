package dev.stoker.cuda;

import dev.stoker.loader.Batch;

/**
 * Work a {@link DevicePrefetcher} queues on a slot's stream right after the slot's copy, so that
 * it overlaps the step as the copy does: decoding JPEGs on the GPU, say
 * ({@link dev.stoker.cuda.image.GpuJpegDecoder}). The consumer's stream waits for it, and the host
 * batch stays out of its pool until it has finished.
 *
 * <p>Runs on the prefetcher's feeder thread, one call at a time. A stage may queue work on streams
 * of its own too, if it makes the slot's stream wait for that work (an event). A stage may keep memory per slot:
 * when it is called for a slot, the work it queued for that slot's previous batch has finished,
 * and the consumer has let go of that batch.
 *
 * <pre>{@code
 * DevicePrefetcher gpu = DevicePrefetcher.builder(cuda, loader.iterator())
 *         .stage((slot, host, copied, stream) -> copied)   // the identity stage
 *         .build();
 * }</pre>
 */
@FunctionalInterface
public interface DeviceStage {
    /**
     * Queues this stage's work for one batch on {@code stream} and returns what the consumer gets
     * as the batch's data.
     *
     * @param slot   the ring slot, from 0 to {@code slots - 1}
     * @param host   the host batch (its memory stays valid until the work queued now has finished)
     * @param copied the batch's data on the device, as the copy made it (DeviceTensors in place of tensors)
     * @param stream the slot's stream ({@code cudaStream_t})
     */
    Object apply(int slot, Batch host, Object copied, long stream);

    /**
     * Whether the prefetcher copies the batch field named {@code field} to the device (for a batch
     * that is a map of fields); a field the stage reads from host memory need not be copied, and
     * {@code copied} then holds its host tensor. All fields by default.
     */
    default boolean copies(Object field) {
        return true;
    }

    /**
     * Whether the prefetcher should wait on the host, before calling this stage for a slot, until
     * the GPU has finished with the slot's last batch, instead of making the slot's stream wait.
     * True for a stage whose library calls return only once GPU work queued ahead of them has
     * run (nvJPEG's engines): with a GPU-side wait, some stream always holds work queued behind
     * the running step, and sharing one of the GPU's few hardware queues with it holds those calls
     * until the step ends. False by default.
     */
    default boolean waitsForSlotOnHost() {
        return false;
    }
}
