package dev.stoker.formats.megatron;

import dev.stoker.testing.Damage;
import dev.stoker.testing.FormatErrors;
import dev.stoker.testing.FuzzSubject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Megatron indexed datasets under the corruption fuzz: a damaged .idx (mostly) or .bin, opened
 * and read whole: every sequence's tokens, every document's bounds, every padded row. A refusal
 * is a {@link MegatronFormatException} naming the .idx (at open), or an error naming the file and
 * the sequence or document (on a read).
 */
public final class MegatronFuzzSubject implements FuzzSubject {
    @Override
    public Case damage(Path fixtures, String base, Path work, long seed) throws IOException {
        SplittableRandom rnd = new SplittableRandom(seed);
        Path prefix = work.resolve(base);
        Path from = fixtures.resolve(base);
        byte[] idx = Files.readAllBytes(MegatronDataset.idxPath(from));
        byte[] bin = Files.readAllBytes(MegatronDataset.binPath(from));
        boolean ofBin = rnd.nextInt(5) == 0;
        Damage.Done d = Damage.apply(ofBin ? bin : idx, rnd);
        Files.write(MegatronDataset.idxPath(prefix), ofBin ? idx : d.bytes());
        Files.write(MegatronDataset.binPath(prefix), ofBin ? d.bytes() : bin);
        return new Case(prefix, (ofBin ? ".bin: " : ".idx: ") + d.what());
    }

    @Override
    public Outcome readAll(Case c) throws IOException {
        Path prefix = c.path();
        MegatronDataset ds;
        try {
            ds = MegatronDataset.open(prefix);
        } catch (MegatronFormatException e) {
            FormatErrors.requireNamed(e, prefix, false, MegatronFormatException.class);
            return Outcome.REFUSED_OPEN;
        }
        boolean refused = false;
        try (ds) {
            PaddedSequences padded = ds.padded(16, 0);
            for (long i = 0; i < ds.size(); i++) {
                try {
                    if (ds.tokens(i).length != ds.sequenceLength(i)) {
                        throw new IllegalStateException("sequence " + i + " read " + ds.tokens(i).length
                                + " tokens of its " + ds.sequenceLength(i));
                    }
                    ds.get(i);
                    padded.get(i);
                    ds.documentOf(i);
                } catch (RuntimeException e) {
                    FormatErrors.requireNamed(e, prefix, true, MegatronFormatException.class);
                    refused = true;
                }
            }
            for (long d = 0; d < ds.documentCount(); d++) {
                if (ds.documentEnd(d) < ds.documentStart(d)) {
                    throw new IllegalStateException("document " + d + " ends before it starts");
                }
            }
        }
        return refused ? Outcome.REFUSED_READ : Outcome.CLEAN;
    }
}
