package dev.stoker.formats.tar;

import dev.stoker.data.SampleStream;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Supplier;

/**
 * Exactly {@code length} samples from a worker's shards: when they run out first, they are read
 * again from the start (a new pass over the same shards, in the same order); when they hold more,
 * the rest is not read. That gives every worker, hence every rank, the same number of samples and
 * batches, so that distributed training does not hang waiting for a rank whose shards were
 * smaller, at the price of repeating (or leaving out) some samples: WebDataset's
 * {@code .repeat().with_epoch(n)}.
 */
final class FixedLengthStream implements SampleStream<TarSample> {
    private final Supplier<ShardChain> passes;
    private final long length;
    private ShardChain chain;
    private Iterator<TarSample> samples;
    private long emitted;
    private boolean passWasEmpty = true;

    FixedLengthStream(Supplier<ShardChain> passes, long length) {
        this.passes = passes;
        this.length = length;
        this.chain = passes.get();
        this.samples = chain;
    }

    /** A stream of {@code length} samples over fresh passes from {@code passes}. */
    static FixedLengthStream of(Supplier<ShardChain> passes, long length) {
        return new FixedLengthStream(passes, length);
    }

    @Override
    public boolean hasNext() {
        if (emitted >= length) {
            return false;
        }
        while (!samples.hasNext()) {
            nextPass();
        }
        return true;
    }

    /** This pass is over: the next one starts from the first shard again, unless this one was empty. */
    private void nextPass() {
        if (passWasEmpty) {
            throw new IllegalStateException("this worker's shards hold no samples, so it cannot deliver "
                    + length + " samples per epoch (fewer shards than workers, or empty shards?)");
        }
        chain.close();
        chain = passes.get();
        samples = chain;
        passWasEmpty = true;
    }

    @Override
    public TarSample next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        emitted++;
        passWasEmpty = false;
        return samples.next();
    }

    /** Moves past {@code n} samples through the shards' own skip, passing over shards their sidecars count. */
    @Override
    public long skip(long n) {
        long want = Math.min(n, length - emitted);
        long done = 0;
        while (done < want) {
            long got = chain.skip(want - done);
            done += got;
            emitted += got;
            passWasEmpty &= got == 0;
            if (done < want) {
                nextPass();
            }
        }
        return done;
    }

    @Override
    public void close() {
        chain.close();
    }
}
