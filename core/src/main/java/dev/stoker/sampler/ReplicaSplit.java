package dev.stoker.sampler;

/**
 * How an epoch's list is dealt out to the ranks of a job, with PyTorch's {@code DistributedSampler}
 * rules: rank {@code r} of {@code R} takes list positions {@code r, r + R, r + 2R, ...}; the list is
 * padded by wrapping around to a multiple of {@code R}, or with {@code dropLast} cut to one.
 */
record ReplicaSplit(int numReplicas, int rank, boolean dropLast) {

    ReplicaSplit {
        if (numReplicas < 1) {
            throw new IllegalArgumentException("numReplicas must be >= 1, got " + numReplicas);
        }
        if (rank < 0 || rank >= numReplicas) {
            throw new IllegalArgumentException("invalid rank " + rank + ": rank must be in [0, "
                    + (numReplicas - 1) + "] for numReplicas " + numReplicas);
        }
    }

    /** Positions each rank takes from a list of {@code n}: PyTorch's {@code num_samples}. */
    long perReplica(long n) {
        long r = numReplicas;
        // ceil((n - r) / r) is floor(n / r) when r does not divide n, including 0 when n < r.
        return dropLast && n % r != 0 ? n / r : n / r + (n % r == 0 ? 0 : 1);
    }

    /** The list position of this rank's {@code j}-th index, in a list of {@code n}, padding included. */
    long position(long j, long n) {
        return (rank + j * numReplicas) % n;
    }
}
