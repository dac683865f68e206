package dev.stoker.formats.tar;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Groups consecutive members with the same key into one sample, the way WebDataset's
 * {@code group_by_keys} does: a key that comes back after another key starts a new sample; two
 * members of one sample with the same field (extension, lower-cased) are an error; members whose names carry no
 * extension (and WebDataset's {@code __*__} metadata files at the top level) are skipped.
 */
final class SampleGrouper implements Iterator<MemberGroup> {
    private final TarReader reader;
    private TarMember carried;
    private MemberGroup next;

    SampleGrouper(TarReader reader) {
        this.reader = reader;
    }

    @Override
    public boolean hasNext() {
        if (next == null) {
            next = readGroup();
        }
        return next != null;
    }

    @Override
    public MemberGroup next() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more samples in " + reader.name());
        }
        MemberGroup g = next;
        next = null;
        return g;
    }

    private MemberGroup readGroup() {
        String key = null;
        List<TarMember> members = new ArrayList<>(2);
        while (true) {
            TarMember m = carried != null ? carried : nextUsable();
            carried = null;
            if (m == null) {
                return key == null ? null : new MemberGroup(key, List.copyOf(members));
            }
            String k = SampleKeys.key(m.name());
            if (key == null) {
                key = k;
            } else if (!key.equals(k)) {
                carried = m;
                return new MemberGroup(key, List.copyOf(members));
            }
            String field = SampleKeys.field(m.name());
            for (TarMember other : members) {
                if (SampleKeys.field(other.name()).equals(field)) {
                    throw new TarException(reader.name(), m.headerOffset(), "sample \"" + key
                            + "\" has two members for field \"" + field + "\": \"" + other.name() + "\" and \""
                            + m.name() + "\" (fields are extensions lower-cased, as in WebDataset)");
                }
            }
            members.add(m);
        }
    }

    private TarMember nextUsable() {
        while (reader.hasNext()) {
            TarMember m = reader.next();
            if (SampleKeys.key(m.name()) != null && !isMetadata(m.name())) {
                return m;
            }
        }
        return null;
    }

    private static boolean isMetadata(String name) {
        return name.indexOf('/') < 0 && name.startsWith("__") && name.endsWith("__");
    }
}
