package dev.stoker.cuda;

import dev.stoker.memory.Bytes;

/**
 * What a CUDA device is.
 *
 * @param ordinal            the device number
 * @param name               e.g. "NVIDIA H200"
 * @param totalMemoryBytes   device memory
 * @param computeCapability  e.g. "9.0"
 * @param multiprocessors    streaming multiprocessors
 * @param copyEngines        asynchronous copy engines (2 lets a host-to-device and a device-to-host copy overlap)
 */
public record DeviceInfo(int ordinal, String name, long totalMemoryBytes, String computeCapability,
                         int multiprocessors, int copyEngines) {
    @Override
    public String toString() {
        return "cuda:" + ordinal + " " + name + " (" + Bytes.format(totalMemoryBytes) + ", compute " + computeCapability
                + ", " + multiprocessors + " SMs, " + copyEngines + " copy engines)";
    }
}
