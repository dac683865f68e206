package dev.stoker.formats.tar;

import java.nio.charset.StandardCharsets;

/**
 * One 512-byte tar header block, parsed and checked: the checksum verified, the numeric fields
 * read as octal or GNU base-256. The name joins the ustar prefix and name fields; a pax {@code path}
 * or GNU long name that came before it replaces it (see {@link TarReader}).
 *
 * @param name     the member's name from this block (prefix/name for ustar)
 * @param size     the size field: the bytes of data that follow this header
 * @param type     the type flag ({@code '0'} or NUL for a regular file, {@code '5'} a directory,
 *                 {@code 'x'} a pax header, {@code 'L'} a GNU long name, ...)
 * @param ustar    whether the block carries the POSIX or GNU {@code ustar} magic
 */
record TarHeader(String name, long size, byte type, boolean ustar) {
    static final int BLOCK = 512;

    /** Regular file, old-style regular file, contiguous file. */
    boolean isRegular() {
        return type == '0' || type == 0 || type == '7';
    }

    /**
     * Types whose size field does not announce data (links, devices, directories, fifos), the way
     * Python's tarfile and GNU tar read them: their data is not skipped.
     */
    boolean hasNoData() {
        return type >= '1' && type <= '6';
    }

    /** True when every byte of the block is zero: the end-of-archive marker. */
    static boolean isZero(byte[] block) {
        for (int i = 0; i < BLOCK; i++) {
            if (block[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Parses {@code block}, read at {@code offset} of {@code source}.
     *
     * @throws TarException when the checksum is wrong or a field is malformed
     */
    static TarHeader parse(byte[] block, String source, long offset) {
        String[] error = new String[1];
        long stored = TarNumbers.parse(block, 148, 8, "checksum", error);
        if (stored < 0) {
            throw new TarException(source, offset, "not a tar header: " + error[0]);
        }
        long unsigned = 0;
        long signed = 0;
        for (int i = 0; i < BLOCK; i++) {
            int b = (i >= 148 && i < 156) ? ' ' : block[i];
            unsigned += b & 0xFF;
            signed += (byte) b;
        }
        // Some old tars summed signed bytes; Python and GNU tar accept either.
        if (stored != unsigned && stored != signed) {
            throw new TarException(source, offset, "header checksum is " + stored + " but the header sums to "
                    + unsigned + " (corrupt header, or not a tar file)");
        }
        long size = TarNumbers.parse(block, 124, 12, "size", error);
        if (size < 0) {
            throw new TarException(source, offset, "corrupt header: " + error[0]);
        }
        byte type = block[156];
        boolean posix = block[257] == 'u' && block[258] == 's' && block[259] == 't' && block[260] == 'a'
                && block[261] == 'r' && block[262] == 0;
        boolean gnu = block[257] == 'u' && block[258] == 's' && block[259] == 't' && block[260] == 'a'
                && block[261] == 'r' && block[262] == ' ';
        String name = cString(block, 0, 100);
        if (posix) {
            String prefix = cString(block, 345, 155);
            if (!prefix.isEmpty()) {
                name = prefix + "/" + name;
            }
        }
        return new TarHeader(name, size, type, posix || gnu);
    }

    /** The bytes up to the first NUL (or the end of the field), as UTF-8. */
    static String cString(byte[] bytes, int from, int length) {
        int end = from;
        while (end < from + length && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, from, end - from, StandardCharsets.UTF_8);
    }
}
