package dev.stoker.formats.mds;

import java.lang.foreign.MemorySegment;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;

/**
 * Checks a shard file against the hashes {@code index.json} lists for it, with the JDK's
 * {@link MessageDigest}: md5, sha1, sha224..sha512 and sha3_*. Streaming also offers xxHash
 * ({@code xxh32}, {@code xxh64}, {@code xxh128}, {@code xxh3_*}) and BLAKE2, which the JDK lacks:
 * a file listing only those cannot be checked, and {@link #verify} says so instead of passing it.
 */
final class ShardHashes {
    private ShardHashes() {
    }

    /** The JDK algorithm for Streaming's name, or null where the JDK has none. */
    static String jdkName(String algo) {
        return switch (algo.toLowerCase(Locale.ROOT)) {
            case "md5" -> "MD5";
            case "sha1" -> "SHA-1";
            case "sha224" -> "SHA-224";
            case "sha256" -> "SHA-256";
            case "sha384" -> "SHA-384";
            case "sha512" -> "SHA-512";
            case "sha3_224" -> "SHA3-224";
            case "sha3_256" -> "SHA3-256";
            case "sha3_384" -> "SHA3-384";
            case "sha3_512" -> "SHA3-512";
            default -> null;
        };
    }

    /**
     * Hashes {@code data} with every listed algorithm the JDK has and compares.
     *
     * @param what names the file and shard for messages
     * @throws MdsFormatException on a mismatch, or when no listed algorithm can be checked
     */
    static void verify(String what, MemorySegment data, Map<String, String> hashes) {
        int checked = 0;
        for (Map.Entry<String, String> h : hashes.entrySet()) {
            String jdk = jdkName(h.getKey());
            if (jdk == null) {
                continue;
            }
            String actual = HexFormat.of().formatHex(digest(jdk, data));
            if (!actual.equalsIgnoreCase(h.getValue())) {
                throw new MdsFormatException(what + ": " + h.getKey() + " is " + actual + " but the index says "
                        + h.getValue() + " (the file is damaged or is not the one the index was written for)");
            }
            checked++;
        }
        if (checked == 0) {
            throw new MdsFormatException(what + ": verifyHashes was asked for but the index lists "
                    + (hashes.isEmpty() ? "no hashes" : "only " + hashes.keySet() + ", which the JDK cannot compute"
                    + " (xxHash and BLAKE2 are not in it)") + " for this file; open without verifyHashes, or"
                    + " rewrite the dataset with hashes=['sha1'] or ['md5']");
        }
    }

    private static byte[] digest(String algorithm, MemorySegment data) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is part of every JDK", e);
        }
        long chunk = 1L << 30; // asByteBuffer takes at most 2 GiB at a time
        for (long off = 0; off < data.byteSize(); off += chunk) {
            md.update(data.asSlice(off, Math.min(chunk, data.byteSize() - off)).asByteBuffer());
        }
        return md.digest();
    }
}
