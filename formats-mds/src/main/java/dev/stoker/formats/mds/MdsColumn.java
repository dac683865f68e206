package dev.stoker.formats.mds;

/**
 * One column of an MDS shard: its name, its encoding and the bytes each value takes.
 *
 * @param name     the column name
 * @param encoding how its values are encoded
 * @param size     bytes per value, or -1 where values vary (a u32 size prefix per sample gives it)
 */
record MdsColumn(String name, MdsEncoding encoding, long size) {
    boolean variable() {
        return size < 0;
    }

    @Override
    public String toString() {
        return name + ": " + encoding.text();
    }
}
