package dev.stoker.cli;

import dev.stoker.sampler.DistributedSampler;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.PrimitiveIterator;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code stoker order}: the sample indices one rank sees in one epoch, computed exactly as the
 * loader computes them (the order is a pure function of these settings), or their digest.
 *
 * <pre>{@code
 * stoker order --size 1000000 --seed 42 --epoch 7 --rank 3 --world-size 8 --batch-size 64 --batches 2
 * }</pre>
 */
@Command(
        name = "order",
        description = {
            "Print the sample indices a rank sees in an epoch, as the loader orders them:",
            "which samples did rank 3 see in epoch 7? The order depends on nothing but",
            "these settings (PyTorch's DistributedSampler semantics, Stoker's documented",
            "shuffle), so the answer is computed, not looked up.",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  stoker order --size 100 --batch-size 8 --batches 2",
            "      the first two batches of epoch 0, shuffled with seed 0",
            "  stoker order --size 1000000 --seed 42 --epoch 7 --rank 3 --world-size 8 \\",
            "      --digest",
            "      a digest of what rank 3 of 8 sees in epoch 7"
        })
final class OrderCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--size", required = true, description = "Samples in the dataset.")
    long size;

    @Option(names = "--seed", defaultValue = "0", description = "The loader's seed (default: 0).")
    long seed;

    @Option(names = "--epoch", defaultValue = "0", description = "The epoch (default: 0).")
    long epoch;

    @Option(names = "--rank", defaultValue = "0", description = "This rank (default: 0).")
    int rank;

    @Option(names = "--world-size", defaultValue = "1", description = "Ranks in the job (default: 1).")
    int worldSize;

    @Option(names = "--no-shuffle", description = "Sequential order, as shuffle=False.")
    boolean noShuffle;

    @Option(names = "--drop-last", description = "Drop the tail that does not divide evenly across ranks (else pad by wrapping around).")
    boolean dropLast;

    @Option(names = "--batch-size", defaultValue = "0", description = "Print one batch per line (default: one index per line).")
    int batchSize;

    @Option(names = "--batches", defaultValue = "-1", description = "Print only this many lines.")
    long limit;

    @Option(names = "--digest", description = "Print the count and a SHA-256 of the indices (as little-endian int64) instead.")
    boolean digest;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Override
    public Integer call() throws NoSuchAlgorithmException {
        PrintWriter out = spec.commandLine().getOut();
        String wrong = size < 0 ? "--size must be 0 or more, not " + size
                : worldSize < 1 ? "--world-size must be 1 or more, not " + worldSize
                : rank < 0 || rank >= worldSize ? "--rank must be from 0 to " + (worldSize - 1) + " (--world-size " + worldSize + "), not " + rank
                : epoch < 0 ? "--epoch must be 0 or more, not " + epoch
                : batchSize < 0 ? "--batch-size must be 1 or more (or 0, the default: one index per line), not " + batchSize
                : null;
        if (wrong != null) {
            spec.commandLine().getErr().println("stoker order: " + wrong);
            return 2;
        }
        DistributedSampler sampler;
        try {
            sampler = DistributedSampler.builder(size).numReplicas(worldSize).rank(rank).shuffle(!noShuffle)
                    .seed(seed).dropLast(dropLast).build();
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("stoker order: " + e.getMessage());
            return 2;
        }
        PrimitiveIterator.OfLong it = sampler.iterator(epoch);
        if (digest) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            ByteBuffer word = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
            long count = 0;
            while (it.hasNext()) {
                sha.update(word.clear().putLong(it.nextLong()).array());
                count++;
            }
            out.println(count + " indices, sha256 " + HexFormat.of().formatHex(sha.digest()));
            return 0;
        }
        long lines = 0;
        StringBuilder line = new StringBuilder();
        while (it.hasNext() && (limit < 0 || lines < limit)) {
            if (batchSize <= 0) {
                out.println(it.nextLong());
            } else {
                line.setLength(0);
                for (int i = 0; i < batchSize && it.hasNext(); i++) {
                    line.append(i == 0 ? "" : " ").append(it.nextLong());
                }
                out.println(line);
            }
            lines++;
        }
        return 0;
    }
}
