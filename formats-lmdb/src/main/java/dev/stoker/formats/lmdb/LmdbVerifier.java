package dev.stoker.formats.lmdb;

import dev.stoker.data.DataFiles;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;

/**
 * A structural check of an LMDB data file, in Java over a read-only map, of everything liblmdb
 * dereferences when it opens the file and looks keys up in the main database: liblmdb trusts page
 * numbers and node offsets inside its map, and one wild offset is a read outside it (SIGSEGV or
 * SIGBUS: the JVM dies). After this check passes, such a read cannot happen.
 *
 * <p>It checks the two meta pages (as liblmdb reads them: meta 1 one page after meta 0, the newer
 * by transaction id wins, a tie goes to meta 0), then walks the main database's B-tree from the
 * chosen meta, reading every branch and leaf page once: page numbers inside the file, page headers,
 * the node offsets array, each node's key and value inside its page, overflow values' page ranges
 * inside the file (their pages are not read), the tree's depth, no page reached twice, keys in
 * order within and across pages (liblmdb's binary search assumes it), and the meta's counts:
 * branch pages, leaf pages and entries exactly; overflow pages at least what the values' sizes
 * need and at most what the file holds besides (liblmdb counts whole runs that it reused in place
 * for a smaller value). Pages the tree does not reach (the freelist's, freed and not yet reused
 * ones) are not read: liblmdb reads none of them when it looks keys up.
 * Databases with sorted duplicates, integer or reversed keys are refused: Stoker reads none, and
 * liblmdb reads their pages differently.
 *
 * <p>Layout (liblmdb's mdb.c, 64-bit, host byte order): a page starts with a 16-byte header
 * (page number u64, pad u16, flags u16, lower u16, upper u16; an overflow page keeps its page
 * count where lower and upper are), then u16 node offsets up to {@code lower}; the nodes lie in
 * {@code [upper, pageSize)}, each an 8-byte header (lo u16, hi u16, flags u16, key size u16),
 * the key, and on leaves the value (size {@code lo | hi << 16}) or, for a big value, the u64
 * number of its first overflow page. A branch node's child is {@code lo | hi << 16 | flags << 32}.
 */
final class LmdbVerifier {
    // Page header
    private static final int PAGE_HEADER = 16;
    private static final int OFF_PGNO = 0;
    private static final int OFF_FLAGS = 10;
    private static final int OFF_LOWER = 12;
    private static final int OFF_UPPER = 14;
    private static final int P_BRANCH = 0x01;
    private static final int P_LEAF = 0x02;
    private static final int P_META = 0x08;
    private static final int P_LEAF2 = 0x20;
    private static final int P_SUBP = 0x40;
    // State bits liblmdb may leave on written pages and never reads back: not corruption.
    private static final int P_STATE = 0x10 | 0x4000 | 0x8000;

    // Meta page: the MDB_meta follows the page header.
    private static final int META_BYTES = PAGE_HEADER + 136; // what liblmdb reads of each meta
    private static final int OFF_MAGIC = 16;
    private static final int OFF_VERSION = 20;
    private static final int OFF_PAGE_SIZE = 40;  // the free DB's md_pad
    private static final int OFF_MAIN_DB = 88;    // MDB_db: pad u32, flags u16, depth u16,
                                                  // branch, leaf, overflow, entries, root (u64)
    private static final int OFF_LAST_PAGE = 136;
    private static final int OFF_TXNID = 144;
    private static final int MAGIC = 0xBEEFC0DE;
    private static final int VERSION = 1;
    private static final int MIN_PAGE_SIZE = 512;
    private static final int MAX_PAGE_SIZE = 0x8000; // liblmdb's MAX_PAGESIZE
    private static final long NO_ROOT = -1L;         // P_INVALID
    private static final int MAX_DEPTH = 32;         // liblmdb's CURSOR_STACK

    // Nodes
    private static final int NODE_HEADER = 8;
    private static final int F_BIGDATA = 0x01;
    private static final int F_SUBDATA = 0x02;
    private static final int F_DUPDATA = 0x04;

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED;

    private final Path path;
    private final MemorySegment file;
    private int pageSize;
    private long lastPage;
    private int depth;
    private BitSet visited;
    private byte[][] levels; // a page copy per tree level
    private long leafPages;
    private long branchPages;
    private long overflowPages;
    private long entries;

    private LmdbVerifier(Path path, MemorySegment file) {
        this.path = path;
        this.file = file;
    }

    /**
     * What the check found: the chosen meta's page size, last page and the main tree's shape;
     * {@code overflowPages} is the meta's count (what {@code stat()} says), checked as far as the
     * tree's values allow.
     */
    record Summary(int pageSize, long lastPage, int depth, long entries, long treePages, long overflowPages) {}

    /**
     * Checks the data file of the environment at {@code path}.
     *
     * @throws LmdbException naming {@code path}, the page, the byte offset and what is wrong
     */
    static Summary verify(Path path, Path dataFile) {
        try (Arena arena = Arena.ofConfined();
             FileChannel channel = DataFiles.openChannel(dataFile)) {
            long size = channel.size();
            MemorySegment map = size == 0 ? MemorySegment.ofArray(new byte[0])
                    : channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            return new LmdbVerifier(path, map).run();
        } catch (IOException e) {
            throw new LmdbException(path, "cannot read the LMDB environment at " + path + ": " + e.getMessage(), e);
        }
    }

    private Summary run() {
        long size = file.byteSize();
        if (size < META_BYTES) {
            throw new LmdbException(path, "not an LMDB environment at " + path + ": its data file holds "
                    + size + " bytes, too few for a meta page");
        }
        checkMeta(0, 0);
        pageSize = u32(OFF_PAGE_SIZE);
        if (pageSize < MIN_PAGE_SIZE || pageSize > MAX_PAGE_SIZE || Integer.bitCount(pageSize) != 1) {
            throw corrupt(0, OFF_PAGE_SIZE, "page size " + Integer.toUnsignedString(pageSize)
                    + " is not a power of two from " + MIN_PAGE_SIZE + " to " + MAX_PAGE_SIZE);
        }
        if (size < pageSize + (long) META_BYTES) {
            throw corrupt(1, pageSize, "the data file holds " + size + " bytes, too few for the second meta page");
        }
        checkMeta(1, pageSize);
        if (u32(pageSize + OFF_PAGE_SIZE) != pageSize) {
            throw corrupt(1, pageSize + OFF_PAGE_SIZE, "page size " + Integer.toUnsignedString(u32(pageSize + OFF_PAGE_SIZE))
                    + " differs from meta page 0's " + pageSize);
        }
        // liblmdb's choice: meta 1 only when its transaction id is strictly greater (unsigned).
        long meta = Long.compareUnsigned(u64(pageSize + OFF_TXNID), u64(OFF_TXNID)) > 0 ? pageSize : 0;
        long metaPage = meta / pageSize;
        lastPage = u64(meta + OFF_LAST_PAGE);
        long pagesInFile = size / pageSize;
        if (lastPage < 1 || lastPage >= pagesInFile) {
            throw corrupt(metaPage, meta + OFF_LAST_PAGE, "its last page is " + Long.toUnsignedString(lastPage)
                    + " but the " + size + "-byte data file holds " + pagesInFile + " pages of " + pageSize + " bytes");
        }
        long db = meta + OFF_MAIN_DB;
        int flags = u16(db + 4);
        if (flags != 0) {
            throw corrupt(metaPage, db + 4, "the main database has flags 0x" + Integer.toHexString(flags)
                    + " (sorted duplicates, integer or reversed keys): not supported");
        }
        depth = u16(db + 6);
        long root = u64(db + 40);
        if (root == NO_ROOT) {
            if (depth != 0 || u64(db + 32) != 0) {
                throw corrupt(metaPage, db, "the main database is empty but has depth " + depth + " and "
                        + Long.toUnsignedString(u64(db + 32)) + " entries");
            }
            return new Summary(pageSize, lastPage, 0, 0, 0, 0);
        }
        if (depth < 1 || depth > MAX_DEPTH) {
            throw corrupt(metaPage, db + 6, "the main database's depth " + depth + " is not from 1 to " + MAX_DEPTH);
        }
        if (root < 2 || root > lastPage) {
            throw corrupt(metaPage, db + 40, "the main database's root page " + Long.toUnsignedString(root)
                    + " is not from 2 to the last page " + lastPage);
        }
        if (lastPage + 1 > Integer.MAX_VALUE) {
            throw new LmdbException(path, "the LMDB environment at " + path + " has " + (lastPage + 1)
                    + " pages, too many to verify; open it with LmdbEnvironment.openTrusted if it is trusted");
        }
        visited = new BitSet((int) (lastPage + 1));
        levels = new byte[depth + 1][pageSize];
        walk(root, 1, null, null);
        expectCount(metaPage, db + 8, "branch pages", branchPages);
        expectCount(metaPage, db + 16, "leaf pages", leafPages);
        expectCount(metaPage, db + 32, "entries", entries);
        long overflow = checkOverflowCount(metaPage, db + 24);
        return new Summary(pageSize, lastPage, depth, entries, branchPages + leafPages, overflow);
    }

    private void checkMeta(int page, long at) {
        if ((u16(at + OFF_FLAGS) & P_META) == 0) {
            throw new LmdbException(path, "not an LMDB environment at " + path + ": page " + page + " (byte " + at
                    + " of the data file) is not a meta page");
        }
        if (u32(at + OFF_MAGIC) != MAGIC) {
            throw new LmdbException(path, "not an LMDB environment at " + path + ": meta page " + page + " (byte "
                    + (at + OFF_MAGIC) + " of the data file) lacks LMDB's magic number 0xBEEFC0DE"
                    + " (or the file was written on a machine of the other byte order)");
        }
        if (u32(at + OFF_VERSION) != VERSION) {
            throw corrupt(page, at + OFF_VERSION, "data format version " + Integer.toUnsignedString(u32(at + OFF_VERSION))
                    + ", not " + VERSION);
        }
    }

    private void expectCount(long metaPage, long at, String what, long counted) {
        long stored = u64(at);
        if (stored != counted) {
            throw corrupt(metaPage, at, "the main database's meta says " + Long.toUnsignedString(stored) + " "
                    + what + " but its tree holds " + counted);
        }
    }

    /**
     * The meta's overflow page count, checked against the tree's values: at least the pages their
     * sizes need, and no more than the file's pages outside the tree and the two metas. Not equal:
     * liblmdb overwrites a big value in place when its overflow run was written in the same
     * transaction and is long enough, and keeps counting the whole run (a 10,000-byte value
     * overwritten by 1 byte still counts 3 pages), so only the run's own header knows its length,
     * and those pages are not read here. A lower count would be damage.
     */
    private long checkOverflowCount(long metaPage, long at) {
        long stored = u64(at);
        long room = lastPage + 1 - 2 - branchPages - leafPages;
        if (Long.compareUnsigned(stored, overflowPages) < 0 || Long.compareUnsigned(stored, room) > 0) {
            throw corrupt(metaPage, at, "the main database's meta says " + Long.toUnsignedString(stored)
                    + " overflow pages, but its values need at least " + overflowPages + " and the file has "
                    + room + " pages outside its tree and the meta pages");
        }
        return stored;
    }

    /** A checked node inside a page copy, whose key bounds a child's keys. */
    private record Key(byte[] page, int at) {}

    /**
     * Checks page {@code pgno} at tree level {@code level} (the root is 1) and the pages below it;
     * its keys must lie in [low, high) (null: unbounded). The page is copied to the heap first
     * (one bulk copy, then plain array reads: fast even before the JIT has compiled this, and a
     * file is usually verified once per process); each level has its own copy, so the parent's
     * keys stay put while its children are checked.
     */
    private void walk(long pgno, int level, Key low, Key high) {
        long base = pgno * pageSize;
        if (visited.get((int) pgno)) {
            throw corrupt(pgno, base, "the page is reached twice in the main database's tree");
        }
        visited.set((int) pgno);
        byte[] page = levels[level];
        MemorySegment.copy(file, ValueLayout.JAVA_BYTE, base, page, 0, pageSize);
        if (u64(page, OFF_PGNO) != pgno) {
            throw corrupt(pgno, base + OFF_PGNO, "its header says page " + Long.toUnsignedString(u64(page, OFF_PGNO)));
        }
        int flags = u16(page, OFF_FLAGS) & ~P_STATE;
        boolean leaf = flags == P_LEAF;
        if (flags != P_LEAF && flags != P_BRANCH) {
            throw corrupt(pgno, base + OFF_FLAGS, (flags & (P_LEAF2 | P_SUBP)) != 0
                    ? "a page of sorted duplicates (flags 0x" + Integer.toHexString(flags) + "): not supported"
                    : "flags 0x" + Integer.toHexString(flags) + " are not those of a branch or leaf page");
        }
        if (leaf != (level == depth)) {
            throw corrupt(pgno, base + OFF_FLAGS, (leaf ? "a leaf" : "a branch") + " page at level " + level
                    + " of a tree of depth " + depth);
        }
        int lower = u16(page, OFF_LOWER);
        int upper = u16(page, OFF_UPPER);
        if (lower < PAGE_HEADER || (lower & 1) != 0 || lower > upper || upper > pageSize) {
            throw corrupt(pgno, base + OFF_LOWER, "free space from " + lower + " to " + upper
                    + " does not fit a " + pageSize + "-byte page after its 16-byte header");
        }
        int keys = (lower - PAGE_HEADER) / 2;
        if (leaf ? keys < 1 && level > 1 : keys < 2) {
            throw corrupt(pgno, base + OFF_LOWER, "a " + (leaf ? "leaf" : "branch") + " page with " + keys + " keys");
        }
        int previous = -1; // the previous compared node's offset in the page
        for (int i = 0; i < keys; i++) {
            int node = node(page, pgno, base, upper, i);
            if (leaf) {
                checkLeafNode(page, pgno, base, i, node);
            } else {
                long child = child(page, node);
                if (child < 2 || child > lastPage) {
                    throw corrupt(pgno, base + node, "node " + i + " points to page " + child
                            + ", not from 2 to the last page " + lastPage);
                }
            }
            if (leaf || i > 0) { // a branch's key 0 is a placeholder liblmdb never compares
                boolean ordered = previous >= 0 ? compare(page, previous, page, node) < 0
                        : low == null || compare(low.page(), low.at(), page, node) <= 0;
                if (!ordered || high != null && compare(page, node, high.page(), high.at()) >= 0) {
                    throw corrupt(pgno, base + node + NODE_HEADER, "node " + i + "'s key is out of order");
                }
                previous = node;
            }
        }
        if (leaf) {
            leafPages++;
            entries += keys;
            return;
        }
        branchPages++;
        Key from = low;
        for (int i = 0; i < keys; i++) {
            Key to = i == keys - 1 ? high : new Key(page, u16(page, PAGE_HEADER + 2 * (i + 1)));
            walk(child(page, u16(page, PAGE_HEADER + 2 * i)), level + 1, from, to);
            from = to;
        }
    }

    // The page offset of node i, after checking that its header and key lie in the nodes' area.
    private int node(byte[] page, long pgno, long base, int upper, int i) {
        int ptrAt = PAGE_HEADER + 2 * i;
        int node = u16(page, ptrAt);
        if (node < upper || (node & 1) != 0 || node > pageSize - NODE_HEADER) {
            throw corrupt(pgno, base + ptrAt, "node " + i + " is at page offset " + node + ", outside the nodes' area ["
                    + upper + ", " + pageSize + ")");
        }
        int ksize = u16(page, node + 6);
        if (node + NODE_HEADER + ksize > pageSize) {
            throw corrupt(pgno, base + node + 6, "node " + i + "'s " + ksize + "-byte key runs past the end of the page");
        }
        return node;
    }

    private static long child(byte[] page, int node) {
        return u16(page, node) | (long) u16(page, node + 2) << 16 | (long) u16(page, node + 4) << 32;
    }

    private void checkLeafNode(byte[] page, long pgno, long base, int i, int node) {
        int flags = u16(page, node + 4);
        if ((flags & F_DUPDATA) != 0) {
            throw corrupt(pgno, base + node + 4, "node " + i + " holds sorted duplicates: not supported");
        }
        if ((flags & ~(F_BIGDATA | F_SUBDATA)) != 0) {
            throw corrupt(pgno, base + node + 4, "node " + i + " has unknown flags 0x" + Integer.toHexString(flags));
        }
        long dsize = u16(page, node) | (long) u16(page, node + 2) << 16;
        if (dsize > Integer.MAX_VALUE - 8) {
            // Valid LMDB (values reach 4 GiB), but lmdbjava's ByteBuffer and a byte[] hold 2 GiB: refused
            // as unsupported, not called corrupt.
            throw new LmdbException(path, "the LMDB environment at " + path + " holds a value of " + dsize + " bytes (page "
                    + pgno + ", byte " + (base + node) + " of the data file, node " + i + "): Stoker reads values"
                    + " of up to 2 GiB, as much as a Java array holds");
        }
        int keyEnd = node + NODE_HEADER + u16(page, node + 6);
        if ((flags & F_BIGDATA) == 0) {
            if (keyEnd + dsize > pageSize) {
                throw corrupt(pgno, base + node, "node " + i + "'s " + dsize + "-byte value runs past the end of the page");
            }
            return;
        }
        if (keyEnd + 8 > pageSize) {
            throw corrupt(pgno, base + keyEnd, "node " + i + "'s overflow page number runs past the end of the page");
        }
        long first = u64(page, keyEnd);
        long pages = (PAGE_HEADER - 1 + dsize) / pageSize + 1; // liblmdb's OVPAGES
        if (first < 2 || first > lastPage || pages > lastPage + 1 - first) {
            throw corrupt(pgno, base + keyEnd, "node " + i + "'s " + dsize + "-byte value is on pages "
                    + Long.toUnsignedString(first) + " and after (" + pages + " pages), not within pages 2 to the last page "
                    + lastPage);
        }
        overflowPages += pages;
    }

    // liblmdb's default order (memcmp, then the shorter first) of the keys of two checked nodes.
    private static int compare(byte[] a, int aNode, byte[] b, int bNode) {
        int aKey = aNode + NODE_HEADER;
        int bKey = bNode + NODE_HEADER;
        return Arrays.compareUnsigned(a, aKey, aKey + u16(a, aNode + 6), b, bKey, bKey + u16(b, bNode + 6));
    }

    private static int u16(byte[] p, int at) {
        return LITTLE_ENDIAN ? (p[at] & 0xFF) | (p[at + 1] & 0xFF) << 8 : (p[at] & 0xFF) << 8 | (p[at + 1] & 0xFF);
    }

    private static long u64(byte[] p, int at) {
        long lo = u16(p, at) | (long) u16(p, at + 2) << 16;
        long hi = u16(p, at + 4) | (long) u16(p, at + 6) << 16;
        return LITTLE_ENDIAN ? lo | hi << 32 : hi | lo << 32;
    }

    private LmdbException corrupt(long page, long at, String what) {
        return new LmdbException(path, "corrupt LMDB environment at " + path + ": page " + page + ", byte " + at
                + " of the data file: " + what);
    }

    private int u16(long at) {
        return Short.toUnsignedInt(file.get(U16, at));
    }

    private int u32(long at) {
        return file.get(U32, at);
    }

    private long u64(long at) {
        return file.get(U64, at);
    }
}
