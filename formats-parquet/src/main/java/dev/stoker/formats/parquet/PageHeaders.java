package dev.stoker.formats.parquet;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Walks the page headers of one column chunk (Thrift compact protocol, read from the file's memory
 * map) and checks that every page lies inside the chunk and that their sizes are sane, before the
 * chunk is handed to Hardwood. Hardwood 1.0.1 trusts a page's {@code compressed_page_size}: a page
 * that claims to run past its chunk makes its page reader loop forever, and a huge size makes it
 * allocate that much direct memory. Reading only the headers costs a few bytes per page.
 */
final class PageHeaders {
    private static final int MAX_DEPTH = 16;

    private final MemorySegment file;
    private long pos;
    private final long limit;

    private PageHeaders(MemorySegment file, long pos, long limit) {
        this.file = file;
        this.pos = pos;
        this.limit = limit;
    }

    /**
     * Checks the chunk {@code [start, start + length)} of {@code file}; returns the sum of its pages'
     * uncompressed sizes.
     *
     * @throws IllegalStateException naming what does not add up
     */
    static long check(MemorySegment file, long start, long length, long maxPageBytes) {
        long end = start + length;
        if (start < 4 || length < 0 || end > file.byteSize() - 8 || end < start) {
            throw new IllegalStateException("the column chunk [" + start + ", +" + length
                    + ") lies outside the file's " + file.byteSize() + " bytes");
        }
        long uncompressedTotal = 0;
        long p = start;
        int page = 0;
        while (p < end) {
            PageHeaders r = new PageHeaders(file, p, end);
            long[] f = r.pageHeader();
            long headerLength = r.pos - p;
            long compressed = f[1];
            long uncompressed = f[0];
            if (compressed < 0 || uncompressed < 0) {
                throw new IllegalStateException("page " + page + " at byte " + p + " claims " + compressed
                        + " bytes compressed, " + uncompressed + " uncompressed");
            }
            if (uncompressed > maxPageBytes) {
                throw new IllegalStateException("page " + page + " at byte " + p + " holds " + uncompressed
                        + " bytes uncompressed; at most " + maxPageBytes + " are allowed per row group"
                        + " (ParquetDataset.Builder.maxRowGroupBytes)");
            }
            if (f[2] >= 0 && f[2] + Math.max(0, f[3]) > compressed) {
                throw new IllegalStateException("page " + page + " at byte " + p + ": its levels (" + f[2] + " + "
                        + f[3] + " bytes) are larger than the page's " + compressed);
            }
            p = p + headerLength + compressed;
            if (p > end) {
                throw new IllegalStateException("page " + page + " runs " + (p - end) + " bytes past its column chunk");
            }
            uncompressedTotal += uncompressed;
            page++;
        }
        return uncompressedTotal;
    }

    /** {uncompressed size, compressed size, v2 definition-levels bytes or -1, v2 repetition-levels bytes or -1}. */
    private long[] pageHeader() {
        long[] out = {-1, -1, -1, -1};
        boolean[] seen = new boolean[4];
        int last = 0;
        while (true) {
            int b = readByte();
            int type = b & 0x0F;
            if (type == 0) {
                break;
            }
            int delta = (b >>> 4) & 0x0F;
            int id = delta != 0 ? last + delta : (int) zigzag(varint());
            last = id;
            if ((id == 2 || id == 3) && type == 5) {
                out[id == 2 ? 0 : 1] = zigzag(varint());
                seen[id - 2] = true;
            } else if (id == 8 && type == 12) {
                long[] v2 = dataPageV2();
                out[2] = v2[0];
                out[3] = v2[1];
            } else {
                skip(type, 0);
            }
        }
        if (!seen[0] || !seen[1]) {
            throw new IllegalStateException("a page header without its sizes");
        }
        return out;
    }

    /** Fields 5 and 6 of DataPageHeaderV2: the definition- and repetition-level byte lengths. */
    private long[] dataPageV2() {
        long[] out = {0, 0};
        int last = 0;
        while (true) {
            int b = readByte();
            int type = b & 0x0F;
            if (type == 0) {
                return out;
            }
            int delta = (b >>> 4) & 0x0F;
            int id = delta != 0 ? last + delta : (int) zigzag(varint());
            last = id;
            if ((id == 5 || id == 6) && type == 5) {
                long v = zigzag(varint());
                if (v < 0) {
                    throw new IllegalStateException("a negative level length " + v);
                }
                out[id - 5] = v;
            } else {
                skip(type, 0);
            }
        }
    }

    private void skip(int type, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalStateException("a page header nested deeper than " + MAX_DEPTH);
        }
        switch (type) {
            case 1, 2 -> { }
            case 3 -> readByte();
            case 4, 5, 6 -> varint();
            case 7 -> advance(8);
            case 8 -> advance(varint());
            case 9, 10 -> {
                int h = readByte();
                long size = (h >>> 4) & 0x0F;
                if (size == 15) {
                    size = varint();
                }
                int elem = h & 0x0F;
                for (long i = 0; i < size; i++) {
                    element(elem, depth);
                }
            }
            case 11 -> {
                long size = varint();
                if (size > 0) {
                    int kv = readByte();
                    for (long i = 0; i < size; i++) {
                        element((kv >>> 4) & 0x0F, depth);
                        element(kv & 0x0F, depth);
                    }
                }
            }
            case 12 -> {
                int last = 0;
                while (true) {
                    int b = readByte();
                    int t = b & 0x0F;
                    if (t == 0) {
                        return;
                    }
                    int delta = (b >>> 4) & 0x0F;
                    last = delta != 0 ? last + delta : (int) zigzag(varint());
                    skip(t, depth + 1);
                }
            }
            default -> throw new IllegalStateException("a page header field of unknown type " + type);
        }
    }

    /** An element of a list, set or map: there a boolean takes a byte, so every element moves on. */
    private void element(int type, int depth) {
        if (type == 1 || type == 2) {
            readByte();
        } else {
            skip(type, depth + 1);
        }
    }

    private int readByte() {
        if (pos >= limit) {
            throw new IllegalStateException("a page header runs past its column chunk");
        }
        return file.get(ValueLayout.JAVA_BYTE, pos++) & 0xFF;
    }

    private void advance(long n) {
        if (n < 0 || n > limit - pos) {
            throw new IllegalStateException("a page header field of " + n + " bytes runs past its column chunk");
        }
        pos += n;
    }

    private long varint() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = readByte();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new IllegalStateException("a varint longer than 10 bytes in a page header");
    }

    private static long zigzag(long n) {
        return (n >>> 1) ^ -(n & 1);
    }
}
