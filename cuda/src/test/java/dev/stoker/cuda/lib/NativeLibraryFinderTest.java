package dev.stoker.cuda.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NativeLibraryFinderTest {

    @Test
    void aLibraryFoundNowhereSaysEveryPlaceItLooked() {
        NativeLibraryFinder finder = new NativeLibraryFinder("a library no machine has", "STOKER_TEST_NO_SUCH_LIB",
                List.of("libstoker-no-such-lib.so", "libstoker-no-such-lib.so.1"), List.of("nvidia/nosuch/lib"),
                "libstoker-no-such-lib");
        List<String> tried = new ArrayList<>();
        assertThat(finder.load(tried)).isEmpty();
        assertThat(tried).contains("/usr/local/cuda/lib64/libstoker-no-such-lib.so",
                "libstoker-no-such-lib.so (dynamic linker)", "libstoker-no-such-lib.so.1 (dynamic linker)");
    }

    @Test
    void theCLibraryIsFoundByTheDynamicLinkersName() {
        // libc is on every Linux machine this runs on: the last resort, the linker's own search, finds it
        NativeLibraryFinder finder = new NativeLibraryFinder("libc", "STOKER_TEST_NO_SUCH_LIB",
                List.of("libstoker-no-such-lib.so", "libc.so.6"), List.of(), "libc");
        var found = finder.load(new ArrayList<>());
        assertThat(found).isPresent();
        assertThat(found.get().lookup().find("strlen")).isPresent();
    }

    @Test
    void withoutNvJpegTheStatusSaysHowToPointAtIt() {
        assumeTrue(NvJpeg.library().isEmpty(), "this machine has nvJPEG: " + NvJpeg.status());
        assertThat(NvJpeg.status()).contains("nvJPEG was not found").contains("STOKER_NVJPEG");
    }
}
