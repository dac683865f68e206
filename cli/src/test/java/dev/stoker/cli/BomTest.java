package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The BOM has no parent (so that importing it pins no third-party version): nothing keeps it in
 * step with the reactor but this test. It lists every library module, at the reactor's version.
 */
class BomTest {
    /** Modules that are run from the checkout, never depended on. */
    private static final List<String> NOT_LIBRARIES = List.of("bom", "cli", "bench");

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void listsEveryLibraryModuleAtTheReactorsVersion() throws IOException {
        String rootPom = Files.readString(ROOT.resolve("pom.xml"));
        String bom = Files.readString(ROOT.resolve("bom/pom.xml"));

        assertThat(ownVersion(bom)).isEqualTo(ownVersion(rootPom));
        List<String> libraries = new ArrayList<>();
        for (String module : all(rootPom, "<module>([^<]+)</module>")) {
            if (!NOT_LIBRARIES.contains(module)) {
                libraries.add(ownArtifactId(Files.readString(ROOT.resolve(module).resolve("pom.xml"))));
            }
        }
        assertThat(libraries).hasSizeGreaterThanOrEqualTo(10);
        assertThat(all(bom, "<artifactId>(stoker-[^<]+)</artifactId>"))
                .filteredOn(a -> !a.equals("stoker-bom"))
                .containsExactlyInAnyOrderElementsOf(libraries);
        assertThat(bom).doesNotContain("<parent>");
    }

    /** The project's own version: the first {@code <version>} at two spaces' indent. */
    private static String ownVersion(String pom) {
        return first(pom, "(?m)^  <version>([^<]+)</version>");
    }

    /** The project's own artifactId: the one at two spaces' indent, not the parent's. */
    private static String ownArtifactId(String pom) {
        return first(pom, "(?m)^  <artifactId>([^<]+)</artifactId>");
    }

    private static String first(String text, String regex) {
        List<String> found = all(text, regex);
        assertThat(found).as(regex).isNotEmpty();
        return found.getFirst();
    }

    private static List<String> all(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        List<String> found = new ArrayList<>();
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }
}
