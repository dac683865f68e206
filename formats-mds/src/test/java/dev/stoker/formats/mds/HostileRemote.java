package dev.stoker.formats.mds;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A remote MDS dataset ("the server", a folder that a {@code pipe:} command reads) whose index
 * gives one shard's file a hostile name: the name a command, a quote that breaks out of the
 * template, a path out of the folder. Where the name can be a file, the server's file is renamed
 * to it, so that a reader that obeys the name still finds the shard (the attack reads normally).
 */
final class HostileRemote {
    /** The file a name's payload creates when it runs. */
    static final String MARKER = "PWNED";
    private static final ObjectMapper JSON = new ObjectMapper();

    private HostileRemote() {
    }

    /**
     * Copies fixture {@code set} into {@code root/name}, names file {@code field} ({@code raw_data}
     * or {@code zip_data}) of shard {@code shard} {@code hostile} in its index, and returns the folder.
     */
    static Path server(String set, Path root, String name, int shard, String field, String hostile) {
        Path server = MdsFixtures.copy(set, root.resolve(name));
        try {
            ObjectNode index = (ObjectNode) JSON.readTree(server.resolve("index.json").toFile());
            ObjectNode file = (ObjectNode) index.get("shards").get(shard).get(field);
            String old = file.get("basename").asText();
            file.put("basename", hostile);
            JSON.writeValue(server.resolve("index.json").toFile(), index);
            Path renamed = fileIn(server, hostile);
            if (renamed != null && Files.exists(server.resolve(old))) {
                Files.move(server.resolve(old), renamed);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return server;
    }

    /** {@code name} as a file directly in {@code folder}, or null where it cannot be one. */
    private static Path fileIn(Path folder, String name) {
        try {
            Path p = folder.resolve(name).normalize();
            return folder.equals(p.getParent()) && !Files.exists(p) ? p : null;
        } catch (InvalidPathException e) {
            return null;
        }
    }

    /** Every file and folder under {@code root}, relative to it. */
    static Set<String> tree(Path root) {
        Set<String> all = new TreeSet<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.forEach(f -> all.add(root.relativize(f).toString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all;
    }

    /** Whether the marker exists anywhere under {@code root} or in the working folder. */
    static boolean markerMade(Path root) {
        if (Files.exists(Path.of(MARKER))) {
            return true;
        }
        try (Stream<Path> files = Files.walk(root)) {
            return files.anyMatch(f -> f.getFileName().toString().equals(MARKER));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads every sample of {@code ds}, every column, as a training run would. */
    static void readAll(MdsDataset ds) {
        for (long i = 0; i < ds.size(); i++) {
            MdsSample s = ds.get(i);
            for (String c : ds.columns()) {
                s.bytes(c);
            }
        }
    }
}
