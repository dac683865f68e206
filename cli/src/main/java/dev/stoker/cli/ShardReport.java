package dev.stoker.cli;

import dev.stoker.formats.tar.SampleKeys;
import dev.stoker.formats.tar.TarMember;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code stoker inspect} learned about one shard while reading it: members, samples (by
 * WebDataset's key rule), per-extension counts and sizes, the first samples, and the error that
 * stopped the reading, if one did.
 */
final class ShardReport {
    /** Counts and sizes of the members with one extension. */
    static final class ExtensionStats {
        long count;
        long bytes;
        long min = Long.MAX_VALUE;
        long max;

        void add(long size) {
            count++;
            bytes += size;
            min = Math.min(min, size);
            max = Math.max(max, size);
        }
    }

    final Map<String, ExtensionStats> extensions = new TreeMap<>();
    final List<String> firstSamples = new ArrayList<>();
    final int show;
    long members;
    long samples;
    long dataBytes;
    long unkeyed;
    String error;
    private String currentKey;
    private StringBuilder current;

    ShardReport(int show) {
        this.show = show;
    }

    void add(TarMember m) {
        members++;
        dataBytes += m.size();
        String key = SampleKeys.key(m.name());
        if (key == null) {
            unkeyed++;
            return;
        }
        String ext = SampleKeys.field(m.name()); // the field a reader names it: lower case, as WebDataset
        extensions.computeIfAbsent(ext, e -> new ExtensionStats()).add(m.size());
        if (!key.equals(currentKey)) {
            finishSample();
            samples++;
            currentKey = key;
            current = samples <= show ? new StringBuilder(key).append(":") : null;
        }
        if (current != null) {
            current.append(' ').append(ext).append(" (").append(ByteSize.format(m.size())).append(')');
        }
    }

    void finishSample() {
        if (current != null) {
            firstSamples.add(current.toString());
            current = null;
        }
    }
}
