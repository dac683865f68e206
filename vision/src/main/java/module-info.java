/**
 * Images: decoding (libjpeg-turbo and libwebp through the FFM API, else ImageIO), transforms,
 * augmentations and image batches. Native access on the module path:
 * {@code --enable-native-access=dev.stoker.vision}.
 */
module dev.stoker.vision {
    requires transitive dev.stoker.core;
    // ImageIO, the decoder when libjpeg-turbo is absent
    requires java.desktop;
    // The Vector API for the resampler, only when the JVM was started with
    // --add-modules jdk.incubator.vector; without it a plain loop runs, quietly.
    requires static jdk.incubator.vector;

    exports dev.stoker.vision;
    exports dev.stoker.vision.augment;
    exports dev.stoker.vision.batch;
    exports dev.stoker.vision.decode;
    exports dev.stoker.vision.transform;

    provides dev.stoker.environment.EnvironmentProbe with dev.stoker.vision.transform.VisionProbe;
}
