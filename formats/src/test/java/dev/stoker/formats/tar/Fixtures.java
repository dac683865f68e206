package dev.stoker.formats.tar;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** The tar files under src/test/resources/tar (made by src/test/python/make_tar_fixtures.py) and helpers. */
final class Fixtures {
    private Fixtures() {
    }

    static Path tar(String name) {
        try {
            return Path.of(Fixtures.class.getResource("/tar/" + name).toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("missing fixture " + name, e);
        }
    }

    /** name -> content of every regular member, read through a map. */
    static Map<String, String> members(Path tar) {
        Map<String, String> out = new LinkedHashMap<>();
        try (Arena arena = Arena.ofConfined(); TarReader r = TarReader.open(tar, arena)) {
            while (r.hasNext()) {
                TarMember m = r.next();
                out.put(m.name(), new String(m.data().toArray(ValueLayout.JAVA_BYTE), StandardCharsets.ISO_8859_1));
            }
        }
        return out;
    }

    /** A seeded random set of samples: keys unique and sorted, 1-4 fields, sizes 0..3000 bytes. */
    static List<Sample> randomSamples(Random rnd, int n) {
        List<Sample> out = new ArrayList<>();
        String[] exts = {"jpg", "cls", "json", "seg.png", "txt", "npy"};
        for (int i = 0; i < n; i++) {
            String key = (rnd.nextInt(4) == 0 ? "dir" + rnd.nextInt(3) + "/" : "") + String.format("%06d", i);
            Map<String, byte[]> fields = new LinkedHashMap<>();
            int count = 1 + rnd.nextInt(4);
            for (int f = 0; f < count; f++) {
                String ext = exts[(i + f) % exts.length];
                byte[] data = new byte[rnd.nextInt(8) == 0 ? 0 : rnd.nextInt(3000)];
                rnd.nextBytes(data);
                fields.put(ext, data);
            }
            out.add(new Sample(key, fields));
        }
        return out;
    }

    /** A sample as written. */
    record Sample(String key, Map<String, byte[]> fields) {
        boolean sameAs(TarSample s) {
            if (!s.key().equals(key) || !new ArrayList<>(s.extensions()).equals(new ArrayList<>(fields.keySet()))) {
                return false;
            }
            for (var f : fields.entrySet()) {
                if (!java.util.Arrays.equals(f.getValue(), s.bytes(f.getKey()))) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Every sample of the shards, in order, read through maps of a confined arena copied out. */
    static List<Sample> readAll(List<Path> shards) {
        List<Sample> out = new ArrayList<>();
        for (Path p : shards) {
            try (Arena arena = Arena.ofConfined(); TarReader r = TarReader.open(p, arena)) {
                SampleGrouper g = new SampleGrouper(r);
                while (g.hasNext()) {
                    TarSample s = TarSample.of(g.next(), p.toString());
                    Map<String, byte[]> fields = new LinkedHashMap<>();
                    for (String e : s.extensions()) {
                        fields.put(e, s.bytes(e));
                    }
                    out.add(new Sample(s.key(), fields));
                }
            }
        }
        return out;
    }
}
