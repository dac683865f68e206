package dev.stoker.formats.tar;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * Checks, when a sample is read by its index, that the shard holds the member where the index
 * says: the block before the member's data must be a regular file's tar header, with a valid
 * checksum, the member's size and (where the name fits the header) its name. An index that passes
 * its own checks can still describe another shard of the same length (one rewritten since, its
 * samples in another order), and a damaged cached copy keeps its length: reading such a sample
 * would hand out another sample's bytes under this one's key. One 512-byte block per member, next
 * to the data it precedes.
 */
final class MemberHeaderCheck {
    /** Sizes from here on are carried by a pax header; the ustar field may hold anything. */
    private static final long LARGEST_OCTAL_SIZE = 077777777777L;
    /** The longest name a header's own name field holds; longer ones come from a pax or GNU header. */
    private static final int NAME_FIELD = 100;

    private MemberHeaderCheck() {
    }

    /**
     * @throws TarException naming the shard and the header's offset when the header before
     *     {@code offset} is not that of member {@code key.extension} of {@code size} bytes
     */
    static void check(MemorySegment shard, String url, String key, String extension, long offset, long size) {
        String name = key + "." + extension;
        long at = offset - TarHeader.BLOCK;
        byte[] block = new byte[TarHeader.BLOCK];
        MemorySegment.copy(shard, ValueLayout.JAVA_BYTE, at, block, 0, TarHeader.BLOCK);
        TarHeader h;
        try {
            h = TarHeader.parse(block, url, at);
        } catch (TarException e) {
            throw mismatch(url, at, name, offset, "the block before it is not a tar header (" + e.what() + ")", e);
        }
        if (!h.isRegular()) {
            throw mismatch(url, at, name, offset, "the header before it is of type '" + (char) h.type()
                    + "', not a regular file", null);
        }
        if (size <= LARGEST_OCTAL_SIZE && h.size() != size) {
            throw mismatch(url, at, name, offset, "the header before it says " + h.size() + " bytes, the index "
                    + size, null);
        }
        if (!nameAgrees(h.name(), name)) {
            throw mismatch(url, at, name, offset, "the header before it names \"" + h.name() + "\"", null);
        }
    }

    /**
     * Whether a header's own name can be that of member {@code name}. An ASCII name of at most 100
     * bytes is written there whole by every writer. A longer or non-ASCII one comes from a pax or
     * GNU header before it, and the header's own name holds its start: ASCII characters as they
     * are, up to 100, and in place of the first other one {@code _} (Stoker), {@code ?} (Python's
     * pax) or the character itself (GNU).
     */
    static boolean nameAgrees(String header, String name) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        if (bytes.length == name.length() && bytes.length <= NAME_FIELD) {
            return header.equals(name);
        }
        int n = Math.min(name.length(), NAME_FIELD);
        for (int i = 0; i < n; i++) {
            char c = name.charAt(i);
            if (i >= header.length()) {
                return false;
            }
            char h = header.charAt(i);
            if (c >= 0x80) {
                return h == '_' || h == '?' || h >= 0x80;
            }
            if (h != c) {
                return false;
            }
        }
        return true;
    }

    private static TarException mismatch(String url, long at, String name, long offset, String what, Throwable cause) {
        return new TarException(url, at, "the index puts member \"" + name + "\" at byte offset " + offset + ", but "
                + what + ": the index does not describe this shard (stale or damaged index or shard: rebuild the"
                + " index with stoker index)", cause);
    }
}
