package dev.stoker.djl;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDManager;

/**
 * The real PyTorch engine for the tests, on the CPU. There is no fallback: when libtorch cannot
 * load (it comes from the pytorch-native-cpu jar, unpacked under target/djl-cache), every test
 * that asks for it fails with DJL's error, never skips.
 */
final class PyTorch {
    private PyTorch() {}

    static Engine engine() {
        return Engine.getEngine(DjlTypes.PYTORCH);
    }

    static NDManager newManager() {
        return NDManager.newBaseManager(Device.cpu(), DjlTypes.PYTORCH);
    }
}
