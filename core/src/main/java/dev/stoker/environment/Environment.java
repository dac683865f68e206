package dev.stoker.environment;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * What every Stoker module on the class or module path found it can use here, in one place: the
 * JVM flags it was started with, the native libraries, the kernel's huge pages. Nothing in it is
 * required (Stoker runs without any of it), but each missing piece costs speed or prints a warning,
 * and this says which and what to do, in one block instead of scattered log lines.
 *
 * <pre>{@code
 * Environment env = Environment.current();
 * if (!env.missing().isEmpty()) {
 *     System.err.print(env.report());   // what is missing, what it costs, how to get it
 * }
 * }</pre>
 *
 * @param findings every probe's findings, in the order the probes were found
 */
public record Environment(List<Finding> findings) {
    public Environment {
        findings = List.copyOf(findings);
    }

    /** Asks every module's {@link EnvironmentProbe}; a probe that fails is reported, not thrown. */
    public static Environment current() {
        List<Finding> all = new ArrayList<>();
        for (ServiceLoader.Provider<EnvironmentProbe> provider : ServiceLoader.load(EnvironmentProbe.class).stream().toList()) {
            try {
                all.addAll(provider.get().probe());
            } catch (RuntimeException | LinkageError e) {
                all.add(new Finding.Missing(provider.type().getName(), "its environment check",
                        "the check failed: " + e, "report this as a bug"));
            }
        }
        return new Environment(all);
    }

    /**
     * The version of Stoker's core on the path, from its jar's manifest; {@code "unknown"} when it is
     * not run from a jar (from a build's class folders).
     */
    public static String stokerVersion() {
        String v = Environment.class.getPackage().getImplementationVersion();
        return v == null ? "unknown" : v;
    }

    /** The findings that are missing. */
    public List<Finding.Missing> missing() {
        return findings.stream().filter(Finding.Missing.class::isInstance).map(Finding.Missing.class::cast).toList();
    }

    /** One readable block: a line per finding, and for each missing one what it costs and the remedy. */
    public String report() {
        StringBuilder out = new StringBuilder();
        int width = findings.stream().mapToInt(f -> f.module().length()).max().orElse(0);
        for (Finding f : findings) {
            String module = String.format("%-" + Math.max(width, 1) + "s", f.module());
            switch (f) {
                case Finding.Ready r -> out.append("  ok       ").append(module).append("  ").append(r.feature())
                        .append(": ").append(r.detail()).append('\n');
                case Finding.Missing m -> out.append("  missing  ").append(module).append("  ").append(m.feature())
                        .append(": ").append(m.consequence()).append('\n')
                        .append("           ").append(" ".repeat(width)).append("  -> ").append(m.remedy()).append('\n');
            }
        }
        if (findings.isEmpty()) {
            out.append("  (no Stoker module on the path has anything to check)\n");
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return report();
    }
}
