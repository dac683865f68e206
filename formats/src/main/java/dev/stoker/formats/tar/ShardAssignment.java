package dev.stoker.formats.tar;

import dev.stoker.data.WorkerContext;
import dev.stoker.random.Seeds;
import java.util.ArrayList;
import java.util.List;

/**
 * Which shards a worker reads in an epoch: a pure function of the shard list, the seed, the epoch
 * and the worker's place among all workers of all ranks.
 *
 * <p>The rule: first, when shard shuffling is on, the list is permuted by a Fisher-Yates shuffle
 * whose draws are {@code Seeds.below(Seeds.splitMix(Seeds.mix(seed, epoch, SHARD_SALT), i), n - i)}:
 * the same permutation on every rank and worker, a new one each epoch. Then global worker
 * {@code g = rank * numWorkers + workerId} of {@code G = worldSize * numWorkers} takes the shards at
 * positions {@code g, g + G, g + 2G, ...}, like WebDataset's {@code split_by_node} then
 * {@code split_by_worker} and like {@code shards[w::W]} in W5. Every shard goes to exactly one
 * worker; with fewer shards than workers some workers read nothing.
 */
public final class ShardAssignment {
    /** Separates the shard-order stream from the per-worker shuffle-buffer streams. */
    static final long SHARD_SALT = 0x5348_4152_4453L; // "SHARDS"

    private ShardAssignment() {
    }

    /** The shard order of an epoch: {@code shards} itself, or its seeded permutation. */
    public static List<String> order(List<String> shards, boolean shuffle, long seed, long epoch) {
        List<String> out = new ArrayList<>(shards);
        if (shuffle) {
            long stream = Seeds.mix(seed, epoch, SHARD_SALT);
            for (int i = 0; i < out.size() - 1; i++) {
                int j = i + (int) Seeds.below(Seeds.splitMix(stream, i), out.size() - i);
                String t = out.get(i);
                out.set(i, out.get(j));
                out.set(j, t);
            }
        }
        return out;
    }

    /** The shards worker {@code ctx} reads in epoch {@code ctx.epoch()}, in reading order. */
    public static List<String> forWorker(List<String> shards, boolean shuffle, WorkerContext ctx) {
        List<String> ordered = order(shards, shuffle, ctx.seed(), ctx.epoch());
        List<String> mine = new ArrayList<>();
        for (int i = ctx.globalWorkerId(); i < ordered.size(); i += ctx.globalWorkers()) {
            mine.add(ordered.get(i));
        }
        return mine;
    }
}
