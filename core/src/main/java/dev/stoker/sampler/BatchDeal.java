package dev.stoker.sampler;

/**
 * How the global batches of an epoch are dealt to the ranks, whole: rank {@code r} of {@code R}
 * takes global batches {@code r, r + R, r + 2R, ...}, so the ranks' batches of one step are
 * neighbours in the global list (similar lengths, in a length-grouped order). Every rank gets the
 * same number of batches: the list is padded by wrapping around to its start (the first
 * {@code R - G mod R} batches again) or, with {@code dropLast}, cut to a multiple of {@code R}:
 * PyTorch's {@code DistributedSampler} rules applied to batches instead of samples.
 */
record BatchDeal(ReplicaSplit split, long globalBatches) {

    BatchDeal(int worldSize, int rank, boolean dropLast, long globalBatches) {
        this(new ReplicaSplit(worldSize, rank, dropLast), globalBatches);
    }

    /** Batches per rank per epoch. */
    long perRank() {
        return globalBatches == 0 ? 0 : split.perReplica(globalBatches);
    }

    /** The global batch that is this rank's {@code j}-th. */
    long global(long j) {
        return split.position(j, globalBatches);
    }
}
