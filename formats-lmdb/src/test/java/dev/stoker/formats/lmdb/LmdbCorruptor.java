package dev.stoker.formats.lmdb;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Damages a valid LMDB data file in one of many ways chosen by a seed, with extra weight on what
 * liblmdb dereferences: meta fields, page headers, the node offsets array, node headers and
 * overflow page numbers; also plain byte flips, random words, truncation, zeroed and copied pages
 * and swapped node offsets. The same base and seed always give the same bytes.
 */
final class LmdbCorruptor {
    /** A damaged copy and a description of the damage, for failure messages. */
    record Corruption(byte[] bytes, String what) {}

    private static final int[] META_U16 = {10, 44, 46, 92, 94};
    private static final int[] META_U32 = {16, 20, 40, 88};
    private static final int[] META_U64 = {24, 32, 48, 56, 64, 72, 80, 96, 104, 112, 120, 128, 136, 144};

    private final byte[] base;
    private final int pageSize;
    private final int pages;
    private final long lastPage;
    private final int[] treePages; // branch and leaf pages of the pristine file

    LmdbCorruptor(byte[] base) {
        this.base = base.clone();
        ByteBuffer b = ByteBuffer.wrap(base).order(ByteOrder.LITTLE_ENDIAN);
        this.pageSize = b.getInt(40);
        this.pages = base.length / pageSize;
        this.lastPage = Math.max(b.getLong(136), b.getLong(pageSize + 136));
        List<Integer> tree = new ArrayList<>();
        for (int p = 2; p < pages; p++) {
            int flags = b.getShort(p * pageSize + 10) & 0xFFFF;
            if (b.getLong(p * pageSize) == p && (flags & 0x03) != 0 && (flags & 0x04) == 0) {
                tree.add(p);
            }
        }
        this.treePages = tree.stream().mapToInt(Integer::intValue).toArray();
    }

    Corruption corrupt(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        byte[] bytes = base.clone();
        StringBuilder what = new StringBuilder();
        int n = rnd.nextInt(10) < 7 ? 1 : 2 + rnd.nextInt(3);
        for (int k = 0; k < n; k++) {
            if (k > 0) {
                what.append("; ");
            }
            bytes = once(rnd, bytes, what);
        }
        return new Corruption(bytes, what.toString());
    }

    private byte[] once(SplittableRandom rnd, byte[] b, StringBuilder what) {
        if (b.length < 2 * pageSize) { // truncated by an earlier step: nothing left worth aiming at
            what.append("nothing");
            return b;
        }
        int kind = rnd.nextInt(100);
        if (kind < 15) {
            int meta = rnd.nextInt(2) * pageSize;
            int w = rnd.nextInt(3);
            int[] fields = w == 0 ? META_U16 : w == 1 ? META_U32 : META_U64;
            int at = meta + fields[rnd.nextInt(fields.length)];
            return setWord(rnd, b, at, w == 0 ? 2 : w == 1 ? 4 : 8, "meta field", what);
        }
        if (kind < 35 && treePages.length > 0) {
            int page = treePages[rnd.nextInt(treePages.length)] * pageSize;
            int[] fields = {0, 10, 12, 14};
            int f = fields[rnd.nextInt(fields.length)];
            return setWord(rnd, b, page + f, f == 0 ? 8 : 2, "page header", what);
        }
        if (kind < 50 && treePages.length > 0) {
            int page = treePages[rnd.nextInt(treePages.length)] * pageSize;
            int keys = Math.max(1, (u16(page + 12) - 16) / 2);
            return setWord(rnd, b, page + 16 + 2 * rnd.nextInt(keys), 2, "node offset", what);
        }
        if (kind < 70 && treePages.length > 0) {
            int page = treePages[rnd.nextInt(treePages.length)] * pageSize;
            int keys = Math.max(1, (u16(page + 12) - 16) / 2);
            int node = page + u16(page + 16 + 2 * rnd.nextInt(keys));
            if (node + 8 > b.length) {
                return setWord(rnd, b, page + 12, 2, "page header", what);
            }
            int field = rnd.nextInt(5);
            if (field == 4) { // the overflow page number of a big value, or the key's first bytes
                int at = Math.min(node + 8 + u16(node + 6), b.length - 8);
                return setWord(rnd, b, at, 8, "node data", what);
            }
            return setWord(rnd, b, node + 2 * field, 2, "node header", what);
        }
        if (kind < 80) {
            int at = rnd.nextInt(b.length);
            int x = 1 + rnd.nextInt(255);
            b[at] ^= (byte) x;
            what.append("byte ").append(at).append(" ^= ").append(x);
            return b;
        }
        if (kind < 85) {
            int width = rnd.nextBoolean() ? 2 : 8;
            int at = rnd.nextInt(b.length / width) * width;
            return setWord(rnd, b, at, width, "word", what);
        }
        if (kind < 90) {
            int len = rnd.nextBoolean() ? rnd.nextInt(b.length) : rnd.nextInt(pages) * pageSize;
            what.append("truncated to ").append(len);
            return Arrays.copyOf(b, len);
        }
        if (kind < 94) {
            int page = rnd.nextInt(pages);
            Arrays.fill(b, Math.min(b.length, page * pageSize), Math.min(b.length, (page + 1) * pageSize), (byte) 0);
            what.append("page ").append(page).append(" zeroed");
            return b;
        }
        if (kind < 97 && treePages.length > 1) {
            int from = treePages[rnd.nextInt(treePages.length)];
            int to = treePages[rnd.nextInt(treePages.length)];
            if ((to + 1) * pageSize > b.length) {
                what.append("nothing");
                return b;
            }
            System.arraycopy(base, from * pageSize, b, to * pageSize, pageSize);
            what.append("page ").append(from).append(" copied over page ").append(to);
            return b;
        }
        if (treePages.length > 0) {
            int page = treePages[rnd.nextInt(treePages.length)] * pageSize;
            int keys = (u16(page + 12) - 16) / 2;
            if (keys >= 2 && page + pageSize <= b.length) {
                int i = rnd.nextInt(keys);
                int j = rnd.nextInt(keys);
                int pi = page + 16 + 2 * i;
                int pj = page + 16 + 2 * j;
                byte a0 = b[pi], a1 = b[pi + 1];
                b[pi] = b[pj];
                b[pi + 1] = b[pj + 1];
                b[pj] = a0;
                b[pj + 1] = a1;
                what.append("node offsets ").append(i).append(" and ").append(j).append(" of page ")
                        .append(page / pageSize).append(" swapped");
                return b;
            }
        }
        what.append("nothing");
        return b;
    }

    private byte[] setWord(SplittableRandom rnd, byte[] b, int at, int width, String field, StringBuilder what) {
        if (at < 0 || at + width > b.length) {
            what.append(field).append(" outside the file");
            return b;
        }
        ByteBuffer buf = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        long old = width == 2 ? buf.getShort(at) & 0xFFFFL : width == 4 ? buf.getInt(at) & 0xFFFFFFFFL : buf.getLong(at);
        long value = boundary(rnd, old, width);
        switch (width) {
            case 2 -> buf.putShort(at, (short) value);
            case 4 -> buf.putInt(at, (int) value);
            default -> buf.putLong(at, value);
        }
        what.append(field).append(" u").append(width * 8).append(" at ").append(at).append(" (page ")
                .append(at / pageSize).append(") ").append(Long.toUnsignedString(old)).append(" -> ")
                .append(Long.toUnsignedString(value & mask(width)));
        return b;
    }

    private long boundary(SplittableRandom rnd, long old, int width) {
        long[] values = width == 2
                ? new long[] {0, 1, 2, 7, 8, 15, 16, 17, 18, pageSize - 8, pageSize - 2, pageSize - 1, pageSize,
                              pageSize + 1, 0x7FFF, 0x8000, 0xFFFF}
                : new long[] {0, 1, 2, 3, lastPage, lastPage + 1, pages, pages + 1, pageSize, 0xFFFFFFFFL, 1L << 32,
                              -1, -2, Long.MAX_VALUE, Long.MIN_VALUE};
        int pick = rnd.nextInt(values.length + 6);
        if (pick < values.length) {
            return values[pick];
        }
        return switch (pick - values.length) {
            case 0 -> old + 1;
            case 1 -> old - 1;
            case 2 -> old + 2;
            case 3 -> old ^ (1L << rnd.nextInt(width * 8));
            default -> rnd.nextLong();
        };
    }

    private static long mask(int width) {
        return width == 8 ? -1L : (1L << (width * 8)) - 1;
    }

    private int u16(int at) {
        return at + 2 <= base.length ? (base[at] & 0xFF) | (base[at + 1] & 0xFF) << 8 : 0;
    }
}
