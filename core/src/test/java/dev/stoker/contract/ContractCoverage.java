package dev.stoker.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.Dataset;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.FillableStreamingDataset;
import dev.stoker.data.StreamingDataset;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The guard that keeps every dataset of a module under its contracts: it finds the named
 * (not anonymous) classes compiled from the module that implement {@link Dataset} or
 * {@link StreamingDataset}, and checks them against the module's list of which contract tests
 * cover each, so that a new dataset without a contract test fails the build.
 *
 * <pre>{@code
 * class ContractCoverageTest {
 *     @Test
 *     void everyDatasetRunsItsContracts() {
 *         ContractCoverage.check(NpyDataset.class, Map.of(
 *                 "dev.stoker.formats.npy.NpyDataset", List.of("dev.stoker.formats.npy.NpyDatasetContractTest",
 *                         "dev.stoker.formats.npy.NpyDatasetFillContractTest")));
 *     }
 * }
 * }</pre>
 */
public final class ContractCoverage {
    /** A list's one entry saying why a class runs no contract of its own (a view made inside the loader). */
    public static final String EXEMPT = "exempt: ";

    private ContractCoverage() {
    }

    /**
     * Checks that the datasets compiled beside {@code anchor} are exactly those {@code covered}
     * names, and that each is covered by tests extending every contract its type asks for: a
     * {@link Dataset} {@link MapDatasetContract}, a {@link FillableDataset}
     * {@link FillableDatasetContract} as well, a {@link StreamingDataset}
     * {@link StreamDatasetContract}, a {@link FillableStreamingDataset} {@link FillableStreamContract}
     * as well. A list of one {@link #EXEMPT} entry exempts a class, with its reason.
     *
     * @param covered dataset class name to the names of the test classes (nested ones with {@code $}) that run its contracts
     */
    public static void check(Class<?> anchor, Map<String, List<String>> covered) {
        List<Class<?>> found = datasets(anchor);
        assertThat(new TreeSet<>(found.stream().map(Class::getName).toList()))
                .as("the datasets of %s: a new one needs its contract tests, and a line in this list",
                        anchor.getPackageName())
                .isEqualTo(new TreeSet<>(covered.keySet()));
        for (Class<?> dataset : found) {
            List<String> tests = covered.get(dataset.getName());
            if (tests.size() == 1 && tests.getFirst().startsWith(EXEMPT)) {
                continue;
            }
            List<Class<?>> contracts = new ArrayList<>();
            for (String name : tests) {
                Class<?> test = load(name, anchor);
                for (Class<?> c : List.of(MapDatasetContract.class, FillableDatasetContract.class,
                        StreamDatasetContract.class, FillableStreamContract.class)) {
                    if (c.isAssignableFrom(test)) {
                        contracts.add(c);
                    }
                }
            }
            if (Dataset.class.isAssignableFrom(dataset)) {
                assertThat(contracts).as("%s is a map-style dataset", dataset.getName()).contains(MapDatasetContract.class);
            }
            if (FillableDataset.class.isAssignableFrom(dataset)) {
                assertThat(contracts).as("%s fills", dataset.getName()).contains(FillableDatasetContract.class);
            }
            if (StreamingDataset.class.isAssignableFrom(dataset)) {
                assertThat(contracts).as("%s streams", dataset.getName()).contains(StreamDatasetContract.class);
            }
            if (FillableStreamingDataset.class.isAssignableFrom(dataset)) {
                assertThat(contracts).as("%s fills from a stream", dataset.getName()).contains(FillableStreamContract.class);
            }
        }
    }

    /** The named, concrete dataset classes in the class folder (or jar's folder) {@code anchor} was loaded from. */
    static List<Class<?>> datasets(Class<?> anchor) {
        Path root;
        try {
            root = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        assertThat(root).as("the guard reads a module's class folder, as Maven's test phase has it").isDirectory();
        List<Class<?>> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String name = root.relativize(f).toString().replace(f.getFileSystem().getSeparator(), ".");
                name = name.substring(0, name.length() - ".class".length());
                if (name.endsWith("module-info") || name.endsWith("package-info")) {
                    continue;
                }
                Class<?> c = load(name, anchor);
                boolean isDataset = Dataset.class.isAssignableFrom(c) || StreamingDataset.class.isAssignableFrom(c);
                if (isDataset && !c.isInterface() && !Modifier.isAbstract(c.getModifiers()) && !c.isAnonymousClass()
                        && !c.isLocalClass() && !c.isSynthetic() && !c.isHidden()) {
                    out.add(c);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static Class<?> load(String name, Class<?> anchor) {
        try {
            return Class.forName(name, false, anchor.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new AssertionError("no class " + name + " on the test class path", e);
        }
    }
}
