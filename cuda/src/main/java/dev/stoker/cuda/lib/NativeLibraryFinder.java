package dev.stoker.cuda.lib;

import java.io.IOException;
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
 * Finds one of NVIDIA's shared libraries at run time, so that Stoker needs no CUDA at build time
 * and none at all on machines without a GPU.
 *
 * <p>Looks, in order, at the full path in the library's own environment variable, in
 * {@code CUDA_HOME} and {@code CUDA_PATH}, each folder of {@code LD_LIBRARY_PATH},
 * {@code /usr/local/cuda*}, the folders NVIDIA's and PyTorch's Python wheels install into, and
 * finally the dynamic linker's own search ({@code ldconfig}). Every place tried is recorded, so
 * that "not found" can say where it looked.
 *
 * @param what      the library as a person calls it, for messages ("the CUDA runtime")
 * @param envVar    the variable naming its full path ({@code STOKER_CUDART})
 * @param names     file names, most wanted first ({@code libcudart.so}, {@code libcudart.so.13}, ...)
 * @param wheelDirs folders under a Python {@code site-packages} where wheels put it
 * @param prefix    a file-name prefix matched in the wheel folders too, for libraries a wheel
 *                  renames with a hash ({@code libnvjpeg} matches torchvision's {@code libnvjpeg-1a2b.so.13})
 */
public record NativeLibraryFinder(String what, String envVar, List<String> names, List<String> wheelDirs, String prefix) {
    private static final String[] PYTHON_LIBS = {"/opt/torch/.venv/lib", "/usr/local/lib", "/usr/lib"};

    /** A loaded library and where it came from. */
    public record Found(SymbolLookup lookup, String path) {}

    /** The library, loaded for the life of the process, or empty with the places tried added to {@code tried}. */
    public Optional<Found> load(List<String> tried) {
        for (Path candidate : candidates()) {
            tried.add(candidate.toString());
            if (Files.isRegularFile(candidate)) {
                try {
                    return Optional.of(new Found(SymbolLookup.libraryLookup(candidate, Arena.global()), candidate.toString()));
                } catch (IllegalArgumentException e) {
                    // a broken or foreign file: keep looking
                }
            }
        }
        for (String name : names) {
            tried.add(name + " (dynamic linker)");
            try {
                return Optional.of(new Found(SymbolLookup.libraryLookup(name, Arena.global()), name));
            } catch (IllegalArgumentException e) {
                // not known to the dynamic linker
            }
        }
        return Optional.empty();
    }

    private List<Path> candidates() {
        Set<Path> dirs = new LinkedHashSet<>();
        Set<Path> wheels = new LinkedHashSet<>();
        List<Path> files = new ArrayList<>();
        String explicit = System.getenv(envVar);
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
        for (String lib : PYTHON_LIBS) {
            for (String wheelDir : wheelDirs) {
                addGlob(wheels, Path.of(lib), "python3*", "site-packages/" + wheelDir);
                addGlob(wheels, Path.of(lib), "python3*", "dist-packages/" + wheelDir);
            }
        }
        dirs.addAll(wheels);
        for (Path d : dirs) {
            for (String n : names) files.add(d.resolve(n));
        }
        for (Path d : wheels) {
            files.addAll(prefixed(d));
        }
        return files;
    }

    /** Files in {@code dir} named {@code prefix-*.so*}: a wheel's renamed copies. */
    private List<Path> prefixed(Path dir) {
        List<Path> found = new ArrayList<>();
        if (!Files.isDirectory(dir)) return found;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, prefix + "-*.so*")) {
            ds.forEach(found::add);
        } catch (IOException e) {
            // unreadable folder: nothing found there
        }
        found.sort(null);
        return found;
    }

    private static void addGlob(Set<Path> out, Path parent, String glob, String child) {
        if (!Files.isDirectory(parent)) return;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(parent, glob)) {
            List<Path> found = new ArrayList<>();
            ds.forEach(found::add);
            found.sort(null);
            for (Path p : found.reversed()) out.add(p.resolve(child)); // newest version first
        } catch (IOException e) {
            // unreadable folder: nothing to add
        }
    }
}
