/**
 * Stoker under DJL: a {@link dev.stoker.loader.DataLoader} as a DJL
 * {@link ai.djl.training.dataset.Dataset} ({@link dev.stoker.djl.StokerDataset}), whose batches
 * reach DJL as NDArrays over the loader's own memory ({@link dev.stoker.djl.NdArrays}), with no
 * copy in between.
 *
 * <p>The zero copy is DJL's PyTorch engine making a {@code torch::from_blob} tensor of a direct
 * buffer over Stoker's off-heap memory; so it holds on the CPU. The engine has no way in for a
 * device pointer (its only import of outside memory, {@code torchFromBlob}, takes a host buffer
 * and copies it to a GPU), so on a GPU DJL's {@code Batch.split} makes the one host-to-device
 * copy, reading straight from the batch's memory; a loader with {@code pinMemory(true)} makes
 * that memory page-locked.
 *
 * <p>The JNI bridge and libtorch are the application's choice ({@code ai.djl.pytorch:pytorch-jni}
 * and a {@code pytorch-native-*} flavour); this module depends on DJL's API and PyTorch engine only.
 *
 * <pre>{@code
 * EasyTrain.fit(trainer, epochs, new StokerDataset(trainLoader), new StokerDataset(validLoader));
 * }</pre>
 */
package dev.stoker.djl;
