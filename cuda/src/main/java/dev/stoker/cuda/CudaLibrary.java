package dev.stoker.cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds {@code libcudart} at run time, so that Stoker needs no CUDA at build time and none at all
 * on machines without a GPU.
 *
 * <p>Looks, in order, in {@code STOKER_CUDART} (a full path), {@code CUDA_HOME} and
 * {@code CUDA_PATH}, each folder of {@code LD_LIBRARY_PATH}, {@code /usr/local/cuda*}, the
 * {@code nvidia-cuda-runtime} wheel that PyTorch installs, and finally the dynamic linker's own
 * search ({@code ldconfig}), for {@code libcudart.so} and its versioned names.
 */
final class CudaLibrary {
    private static final String[] NAMES = {
        "libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0", "libcudart.so.11"
    };

    private CudaLibrary() {}

    /** The loaded library and where it came from, or empty with the places tried in {@code tried}. */
    static Optional<Loaded> load(List<String> tried) {
        for (Path candidate : candidates()) {
            tried.add(candidate.toString());
            if (Files.isRegularFile(candidate)) {
                try {
                    return Optional.of(new Loaded(SymbolLookup.libraryLookup(candidate, Arena.global()), candidate.toString()));
                } catch (IllegalArgumentException e) {
                    // a broken or foreign file: keep looking
                }
            }
        }
        for (String name : NAMES) {
            tried.add(name + " (dynamic linker)");
            try {
                return Optional.of(new Loaded(SymbolLookup.libraryLookup(name, Arena.global()), name));
            } catch (IllegalArgumentException e) {
                // not known to the dynamic linker
            }
        }
        return Optional.empty();
    }

    record Loaded(SymbolLookup lookup, String path) {}

    private static List<Path> candidates() {
        Set<Path> dirs = new LinkedHashSet<>();
        List<Path> files = new ArrayList<>();
        String explicit = System.getenv("STOKER_CUDART");
        if (explicit != null && !explicit.isBlank()) {
            files.add(Path.of(explicit));
        }
        for (String var : new String[] {"CUDA_HOME", "CUDA_PATH"}) {
            String home = System.getenv(var);
            if (home != null && !home.isBlank()) {
                dirs.add(Path.of(home, "lib64"));
                dirs.add(Path.of(home, "lib"));
            }
        }
        String ld = System.getenv("LD_LIBRARY_PATH");
        if (ld != null) {
            for (String d : ld.split(":")) {
                if (!d.isBlank()) dirs.add(Path.of(d));
            }
        }
        dirs.add(Path.of("/usr/local/cuda/lib64"));
        addGlob(dirs, Path.of("/usr/local"), "cuda-*", "lib64");
        // PyTorch's CUDA wheels bring their own runtime (nvidia-cuda-runtime).
        for (String venv : new String[] {"/opt/torch/.venv/lib", "/usr/local/lib", "/usr/lib"}) {
            addGlob(dirs, Path.of(venv), "python3*", "site-packages/nvidia/cuda_runtime/lib");
            addGlob(dirs, Path.of(venv), "python3*", "dist-packages/nvidia/cuda_runtime/lib");
            addGlob(dirs, Path.of(venv), "python3*", "site-packages/nvidia/cu13/lib");
        }
        for (Path d : dirs) {
            for (String n : NAMES) files.add(d.resolve(n));
        }
        return files;
    }

    private static void addGlob(Set<Path> out, Path parent, String glob, String child) {
        if (!Files.isDirectory(parent)) return;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(parent, glob)) {
            List<Path> found = new ArrayList<>();
            ds.forEach(found::add);
            found.sort(null);
            for (Path p : found.reversed()) out.add(p.resolve(child)); // newest version first
        } catch (java.io.IOException e) {
            // unreadable folder: nothing to add
        }
    }
}
