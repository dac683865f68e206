package dev.stoker.sampler;

import dev.stoker.random.Seeds;

import java.util.Objects;

/**
 * A keyed pseudo-random permutation of {@code [0, size)} that needs no memory proportional to
 * {@code size}: {@link #apply} maps a position to its index in O(1) expected time, and
 * {@link #inverse} maps back. Datasets of billions of samples can be shuffled this way, and an
 * epoch can be resumed at any position.
 *
 * <p>The construction, exactly (arithmetic modulo 2^64, {@code mix64} and {@code γ} as in
 * SplitMix64, see the package documentation):
 * <ul>
 *   <li>{@code k} is the number of bits of {@code size - 1} (0 when {@code size <= 1}); the
 *       permutation is built on {@code [0, 2^k)}, the smallest power of two holding every index.
 *   <li>A value {@code x} of {@code k} bits is split into a left half {@code L} of
 *       {@code a = ceil(k/2)} high bits and a right half {@code R} of {@code b = floor(k/2)} low
 *       bits. Each of the {@value #ROUNDS} rounds {@code r = 0, 1, ...} of this (unbalanced)
 *       Feistel network maps {@code (L, R)} to {@code (R, L ^ (F_r(R) mod 2^a)))}, i.e.
 *       {@code x' = R << a | (L ^ F_r(R)) & (2^a - 1)}, after which the widths {@code a} and
 *       {@code b} trade places.
 *   <li>The round function is {@code F_r(R) = mix64(R ^ K_r)} with round keys
 *       {@code K_r = mix64(key + (r + 1)·γ)}: the SplitMix64 stream seeded with {@code key}.
 *   <li>Cycle walking: {@code apply(i)} encrypts {@code i}, and encrypts the result again while it
 *       is {@code >= size}. Since {@code 2^k < 2·size}, that takes fewer than two rounds of the
 *       network on average, and it yields a bijection of {@code [0, size)}.
 * </ul>
 *
 * <pre>{@code
 * FeistelPermutation p = FeistelPermutation.of(3_000_000_000L, 42, 0);  // seed 42, epoch 0
 * long first = p.apply(0);           // the index served first
 * p.inverse(first);                  // 0
 * }</pre>
 */
public final class FeistelPermutation {
    /** Rounds of the network: more than the 4 a pseudo-random permutation needs in theory. */
    public static final int ROUNDS = 8;

    private final long size;
    private final long key;
    private final int bits;
    private final int leftBits;
    private final long[] roundKeys = new long[ROUNDS];

    /**
     * The permutation of {@code [0, size)} under {@code key}.
     *
     * @throws IllegalArgumentException if {@code size < 0}
     */
    public FeistelPermutation(long size, long key) {
        if (size < 0) {
            throw new IllegalArgumentException("size must be >= 0, got " + size);
        }
        this.size = size;
        this.key = key;
        this.bits = size <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(size - 1);
        this.leftBits = (bits + 1) / 2;
        for (int r = 0; r < ROUNDS; r++) {
            roundKeys[r] = Seeds.splitMix(key, r);
        }
    }

    /**
     * The permutation that shuffles epoch {@code epoch} under {@code seed}, with key
     * {@code mix(seed, epoch, 0)}: the order {@link RandomSampler} (first pass),
     * {@link SubsetRandomSampler} and {@link DistributedSampler} use.
     */
    public static FeistelPermutation of(long size, long seed, long epoch) {
        return new FeistelPermutation(size, Seeds.mix(seed, epoch, 0));
    }

    /** The number of elements permuted. */
    public long size() {
        return size;
    }

    public long key() {
        return key;
    }

    /**
     * The image of {@code position}.
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= position < size()}
     */
    public long apply(long position) {
        Objects.checkIndex(position, size);
        long x = position;
        do {
            x = encrypt(x);
        } while (x >= size);
        return x;
    }

    /**
     * The position whose image is {@code index}: {@code inverse(apply(p)) == p}.
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= index < size()}
     */
    public long inverse(long index) {
        Objects.checkIndex(index, size);
        long x = index;
        do {
            x = decrypt(x);
        } while (x >= size);
        return x;
    }

    private long encrypt(long x) {
        int a = leftBits;
        int b = bits - leftBits;
        for (int r = 0; r < ROUNDS; r++) {
            long left = x >>> b;
            long right = x & mask(b);
            long f = Seeds.mix64(right ^ roundKeys[r]) & mask(a);
            x = (right << a) | (left ^ f);
            int t = a;
            a = b;
            b = t;
        }
        return x;
    }

    private long decrypt(long x) {
        // Widths of (L, R) in the value held after the last round: they swapped once per round.
        int a = ROUNDS % 2 == 0 ? leftBits : bits - leftBits;
        int b = bits - a;
        for (int r = ROUNDS - 1; r >= 0; r--) {
            // The round began with widths (prevA, prevB) = (b, a) and produced
            // x = R << prevA | (L ^ F(R)): undo it.
            int prevA = b;
            int prevB = a;
            long right = x >>> prevA;
            long mixed = x & mask(prevA);
            long f = Seeds.mix64(right ^ roundKeys[r]) & mask(prevA);
            x = ((mixed ^ f) << prevB) | right;
            a = prevA;
            b = prevB;
        }
        return x;
    }

    private static long mask(int width) {
        return (1L << width) - 1;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FeistelPermutation p && p.size == size && p.key == key;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(size) * 31 + Long.hashCode(key);
    }

    @Override
    public String toString() {
        return "FeistelPermutation[size=" + size + ", key=" + key + "]";
    }
}
