package dev.stoker.formats.lmdb;

import dev.stoker.testing.FormatErrors;
import dev.stoker.testing.FuzzSubject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * LMDB under the corruption fuzz ({@link LmdbCorruptionFuzzTest}): each case damages a copy of a
 * base environment's data file ({@link LmdbCorruptor}), opens it with {@link LmdbEnvironment#open}
 * and reads every key the base holds and a few it lacks. A refusal is an {@link LmdbException}
 * naming the environment. The base {@code w8} is written here, in W8's layout; a base name ending
 * in {@code :trusted} opens without the structural check, to see what it prevents (the JVM soon
 * dies in liblmdb).
 */
public final class LmdbFuzzSubject implements FuzzSubject {
    private record Base(LmdbCorruptor corruptor, List<byte[]> keys) {}

    private final Map<String, Base> bases = new HashMap<>();

    @Override
    public Case damage(Path fixtures, String base, Path work, long seed) throws IOException {
        String name = base.replace(":trusted", "");
        Base b = bases.get(name);
        if (b == null) {
            Path env = name.equals("w8")
                    ? LmdbTestEnvironments.writeW8(work.resolve("w8-base"), 40, 100, 3000, 700, 9000, 20)
                    : fixtures.resolve(name);
            List<byte[]> keys = new ArrayList<>(LmdbTestEnvironments.keys(env));
            for (String absent : List.of("zzzzzz", "000000x", "\u0001", "__len_")) {
                keys.add(absent.getBytes(StandardCharsets.UTF_8));
            }
            b = new Base(new LmdbCorruptor(Files.readAllBytes(env.resolve("data.mdb"))), keys);
            bases.put(name, b);
        }
        Path caseDir = Files.createDirectories(work.resolve("case-" + name));
        LmdbCorruptor.Corruption c = b.corruptor().corrupt(seed);
        Files.write(caseDir.resolve("data.mdb"), c.bytes());
        return new Case(caseDir, (base.endsWith(":trusted") ? "trusted " : "") + name + " " + c.what());
    }

    @Override
    public Outcome readAll(Case c) {
        Path dir = c.path();
        String name = dir.getFileName().toString().substring("case-".length());
        boolean opened = false;
        try (LmdbEnvironment env = c.damage().startsWith("trusted ") ? LmdbEnvironment.openTrusted(dir)
                : LmdbEnvironment.open(dir)) {
            opened = true;
            for (byte[] key : bases.get(name).keys()) {
                env.get(key, "#" + key.length);
            }
            env.entries();
            return Outcome.CLEAN;
        } catch (LmdbException e) {
            FormatErrors.requireNamed(e, dir, false, LmdbException.class);
            return opened ? Outcome.REFUSED_READ : Outcome.REFUSED_OPEN;
        }
    }
}
