/**
 * Images: decoding (libjpeg-turbo and libwebp through the FFM API, else ImageIO), transforms,
 * augmentations and image batches. Native access on the module path:
 * {@code --enable-native-access=dev.stoker.vision}.
 */
@SuppressWarnings("requires-automatic")
module dev.stoker.vision {
    requires transitive dev.stoker.core;
    // ImageIO, the decoder when libjpeg-turbo is absent
    requires java.desktop;
    // the resampler's warm-up counts the bytes its thread allocates (com.sun.management.ThreadMXBean)
    requires jdk.management;
    // WebP where libwebp is not installed: an ImageIO plugin, found by ImageIO as a service. Not
    // called by name; required so that it is resolved on the module path too. It names itself
    // (Automatic-Module-Name).
    requires com.twelvemonkeys.imageio.webp;
    // The Vector API (jdk.incubator.vector) is used by the resampler only when the JVM was started
    // with --add-modules jdk.incubator.vector; without it a plain loop runs, quietly. It is not
    // required here, not even statically (javac would warn every user about the incubator module):
    // the build compiles with --add-reads, and transform.Mac adds the read edge at run time.

    exports dev.stoker.vision;
    exports dev.stoker.vision.augment;
    exports dev.stoker.vision.batch;
    exports dev.stoker.vision.decode;
    exports dev.stoker.vision.transform;

    provides dev.stoker.environment.EnvironmentProbe with dev.stoker.vision.transform.VisionProbe;
}
