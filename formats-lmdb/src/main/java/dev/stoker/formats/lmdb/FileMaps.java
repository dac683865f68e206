package dev.stoker.formats.lmdb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a file is mapped in this process, from Linux's {@code /proc/self/maps}. liblmdb does not
 * say where it mapped its data file ({@code mdb_env_info}'s address is the requested fixed
 * address, 0), and a value's bytes can only be checked against the file's end knowing that.
 */
final class FileMaps {
    private FileMaps() {}

    /** The start addresses of the mappings of {@code file} at offset 0; empty where /proc is absent. */
    static long[] startsOf(Path file) {
        Path maps = Path.of("/proc/self/maps");
        if (!Files.isReadable(maps)) {
            return new long[0];
        }
        String real;
        List<String> lines;
        try {
            real = file.toRealPath().toString();
            lines = Files.readAllLines(maps);
        } catch (IOException e) {
            return new long[0];
        }
        List<Long> starts = new ArrayList<>();
        for (String line : lines) {
            // start-end perms offset dev inode path
            if (!line.endsWith(" " + real)) {
                continue;
            }
            String[] f = line.trim().split("\\s+", 6);
            if (f.length == 6 && Long.parseUnsignedLong(f[2], 16) == 0) {
                starts.add(Long.parseUnsignedLong(f[0].substring(0, f[0].indexOf('-')), 16));
            }
        }
        return starts.stream().mapToLong(Long::longValue).toArray();
    }
}
