package dev.stoker.formats.tar;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/** A tar sample's content for the contracts: its key and every field's bytes, copied out of the shard. */
final class TarContent {
    private TarContent() {
    }

    static String of(TarSample s) {
        Map<String, String> fields = new TreeMap<>();
        for (String ext : s.extensions()) {
            fields.put(ext, Arrays.toString(s.bytes(ext)));
        }
        return s.key() + " " + fields;
    }
}
