package dev.stoker.cli;

import dev.stoker.environment.Environment;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.Manifest;
import picocli.CommandLine.IVersionProvider;

/**
 * What {@code stoker --version} prints: Stoker's version and the commit it was built from, the JVM,
 * and what every module found it can use here ({@link Environment}), so that one paste of it
 * answers the first questions of a bug report.
 */
final class VersionText implements IVersionProvider {
    @Override
    public String[] getVersion() {
        List<String> lines = new ArrayList<>();
        lines.add("stoker " + Environment.stokerVersion() + " (commit " + buildCommit() + ")");
        lines.add("JVM: " + System.getProperty("java.vm.name") + " " + Runtime.version() + " ("
                + System.getProperty("java.vm.vendor") + "), " + System.getProperty("os.name") + " "
                + System.getProperty("os.version") + " " + System.getProperty("os.arch") + ", "
                + Runtime.getRuntime().availableProcessors() + " cores");
        lines.add("What this JVM and machine give Stoker:");
        lines.add(Environment.current().report().stripTrailing());
        return lines.toArray(String[]::new);
    }

    /** The {@code Build-Commit} of the jar this class came from; "unknown" outside a jar. */
    static String buildCommit() {
        try {
            Enumeration<URL> manifests = VersionText.class.getClassLoader().getResources("META-INF/MANIFEST.MF");
            while (manifests.hasMoreElements()) {
                try (InputStream in = manifests.nextElement().openStream()) {
                    Manifest m = new Manifest(in);
                    if ("dev.stoker.cli.Main".equals(m.getMainAttributes().getValue("Main-Class"))) {
                        String commit = m.getMainAttributes().getValue("Build-Commit");
                        return commit == null ? "unknown" : commit;
                    }
                }
            }
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
        return "unknown";
    }
}
