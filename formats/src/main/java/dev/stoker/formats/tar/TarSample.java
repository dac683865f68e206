package dev.stoker.formats.tar;

import dev.stoker.formats.mmap.MapFaults;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A WebDataset sample: the members of a shard that share a key, by field (the extension
 * lower-cased, as WebDataset names it; see {@link SampleKeys}). The bytes are
 * segments: slices of the shard's memory map when it was mapped (valid while the arena that
 * mapped it is open; see the dataset that made the sample), heap segments when it was streamed.
 *
 * <pre>{@code
 * TarSample s = ...;                         // key "000042", fields jpg and cls
 * MemorySegment jpeg = s.segment("jpg");     // zero-copy
 * int label = Integer.parseInt(s.string("cls").trim());
 * }</pre>
 *
 * @param key    the sample's key, WebDataset's {@code __key__}
 * @param url    the shard it came from, WebDataset's {@code __url__}
 * @param fields the members' data by field (extension, lower-cased), in shard order
 */
public record TarSample(String key, String url, Map<String, MemorySegment> fields) {

    public TarSample {
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    static TarSample of(MemberGroup g, String url) {
        Map<String, MemorySegment> fields = new LinkedHashMap<>();
        for (TarMember m : g.members()) {
            fields.put(SampleKeys.field(m.name()), m.data());
        }
        return new TarSample(g.key(), url, fields);
    }

    /** The extensions this sample has, in shard order. */
    public Set<String> extensions() {
        return fields.keySet();
    }

    /** Whether the sample has a member with this extension. */
    public boolean has(String extension) {
        return fields.containsKey(extension);
    }

    /** The data of the member with this extension, without a copy. */
    public MemorySegment segment(String extension) {
        MemorySegment s = fields.get(extension);
        if (s == null) {
            throw new NoSuchElementException("sample \"" + key + "\" of " + url + " has no \"" + extension
                    + "\" member; it has " + fields.keySet());
        }
        return s;
    }

    /** A copy of the data of the member with this extension. */
    public byte[] bytes(String extension) {
        MemorySegment s = segment(extension);
        try {
            byte[] copy = s.toArray(ValueLayout.JAVA_BYTE);
            MapFaults.deliverPending();
            return copy;
        } catch (InternalError e) { // the shard was cut short under its map: name it
            throw MappedMembers.changed(e, url, "member ." + extension + " of sample \"" + key + "\"");
        }
    }

    /** The data of the member with this extension, as UTF-8 text. */
    public String string(String extension) {
        return new String(bytes(extension), StandardCharsets.UTF_8);
    }

    /** WebDataset's dict: {@code __key__}, {@code __url__} and one entry per extension (a segment). */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("__key__", key);
        m.put("__url__", url);
        m.putAll(fields);
        return m;
    }
}
