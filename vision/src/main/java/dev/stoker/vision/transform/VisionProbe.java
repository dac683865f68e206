package dev.stoker.vision.transform;

import dev.stoker.environment.EnvironmentProbe;
import dev.stoker.environment.Finding;
import dev.stoker.environment.NativeAccess;
import dev.stoker.vision.decode.ImageDecoder;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Vision's part of {@link dev.stoker.environment.Environment}: native access and libjpeg-turbo for
 * decoding, libwebp, the Vector API for the resampler. A service implementation; not called directly.
 */
public final class VisionProbe implements EnvironmentProbe {
    private static final String MODULE = "stoker-vision";

    /** Made by {@link java.util.ServiceLoader}. */
    public VisionProbe() {
    }

    @Override
    public List<Finding> probe() {
        Finding access = NativeAccess.finding(MODULE, VisionProbe.class, "libjpeg-turbo, libwebp");
        boolean nativeAccess = access instanceof Finding.Ready;
        return List.of(access, turboJpeg(nativeAccess), libWebp(nativeAccess), vectorApi());
    }

    private static Finding turboJpeg(boolean nativeAccess) {
        Finding f = nativeLibrary("libjpeg-turbo", nativeAccess, ImageDecoder::turboJpegAvailable,
                "JPEGs are decoded by the JDK's ImageIO, about 2.5x slower",
                "install it (Debian/Ubuntu: apt-get install libturbojpeg0), or name it with -Dstoker.turbojpeg.path=FILE"
                        + " or STOKER_TURBOJPEG=FILE");
        // Which library and API: libjpeg-turbo 3's decodes only the crop, 2.x's the whole image.
        return f instanceof Finding.Ready r
                ? new Finding.Ready(r.module(), r.feature(), ImageDecoder.turboJpegLibrary().orElse("found")) : f;
    }

    private static Finding libWebp(boolean nativeAccess) {
        return nativeLibrary("libwebp", nativeAccess, ImageDecoder::libWebpAvailable,
                "WebP is decoded by TwelveMonkeys' pure-Java reader: lossy images differ from PIL's by a few levels",
                "install it (Debian/Ubuntu: apt-get install libwebp7 libwebpdemux2), or name it with -Dstoker.libwebp.path=FILE");
    }

    /** A library looked up only with native access, since the lookup without it draws the JDK's warning. */
    private static Finding nativeLibrary(String feature, boolean nativeAccess, BooleanSupplier available,
                                         String cost, String remedy) {
        if (!nativeAccess) {
            return new Finding.Missing(MODULE, feature, cost + " (not looked up without native access)",
                    "start the JVM with " + NativeAccess.flag(VisionProbe.class));
        }
        return available.getAsBoolean() ? new Finding.Ready(MODULE, feature, "found")
                : new Finding.Missing(MODULE, feature, cost, remedy);
    }

    private static Finding vectorApi() {
        String feature = "Vector API";
        if (Mac.VECTOR) {
            return new Finding.Ready(MODULE, feature, "jdk.incubator.vector, for the resampler and the sharpness op");
        }
        return new Finding.Missing(MODULE, feature, "resizing runs plain loops, about 4x slower per image (sharpness about 3x)",
                "start the JVM with --add-modules jdk.incubator.vector (the JVM then notes the incubator module in one line)");
    }
}
