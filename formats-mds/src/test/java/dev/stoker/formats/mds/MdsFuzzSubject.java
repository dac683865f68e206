package dev.stoker.formats.mds;

import dev.stoker.data.BatchSlots;
import dev.stoker.data.DataPosition;
import dev.stoker.data.SampleLayout;
import dev.stoker.tensor.Tensor;
import dev.stoker.testing.FormatErrors;
import dev.stoker.testing.FuzzSubject;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * MDS under the corruption fuzz ({@link MdsCorruptionFuzzTest}): each case damages a fresh copy of
 * a base set ({@link MdsCorruptor}), opens it (with the hash check on every fourth case) and reads
 * every sample through every accessor its columns' encodings allow, and the fill path over the
 * fixed columns. A refusal is an {@link MdsFormatException} naming the set's directory.
 */
public final class MdsFuzzSubject implements FuzzSubject {
    private int made;

    @Override
    public Case damage(Path fixtures, String base, Path work, long seed) throws IOException {
        Path caseDir = work.resolve("case");
        delete(caseDir);
        copy(fixtures.resolve(base), caseDir);
        String damage = MdsCorruptor.damage(caseDir, seed);
        return new Case(caseDir, (made++ % 4 == 0 ? "verify " : "") + damage);
    }

    /** Reads everything, with the hash check on every fourth case; throws what was not an MdsFormatException naming the set. */
    @Override
    public Outcome readAll(Case fuzzCase) {
        Path dir = fuzzCase.path();
        boolean verify = fuzzCase.damage().startsWith("verify ");
        MdsDataset ds;
        try {
            ds = MdsDataset.open(dir, MdsOptions.defaults().verifyHashes(verify));
        } catch (MdsFormatException e) {
            requireNamed(e, dir);
            return Outcome.REFUSED_OPEN;
        }
        boolean refused = false;
        try (ds; Arena arena = Arena.ofConfined()) {
            List<String> fixed = new ArrayList<>();
            for (String c : ds.columns()) {
                MdsEncoding e = ds.column(c).encoding();
                if (e.isFixedTensor()) {
                    fixed.add(c);
                }
            }
            MdsTensorDataset tensors = fixed.isEmpty() ? null : ds.tensors(fixed.toArray(String[]::new));
            BatchSlots slots = null;
            if (tensors != null) {
                List<Tensor> batch = new ArrayList<>();
                for (SampleLayout.Field f : tensors.layout().fields()) {
                    batch.add(Tensor.allocate(arena, f.dtype(), f.shape().prepend(1)));
                }
                slots = new BatchSlots(tensors.layout(), batch);
            }
            for (int s = 0; s < ds.shards(); s++) {
                long first = ds.firstSample(s);
                long end = s + 1 < ds.shards() ? ds.firstSample(s + 1) : ds.size();
                for (long i = first; i < end; i++) {
                    try {
                        MdsSample sample = ds.get(i);
                        for (String c : ds.columns()) {
                            try {
                                readColumn(ds, sample, c);
                            } catch (MdsFormatException e) {
                                requireNamed(e, dir);
                                requireSample(e, i);
                                // scalars' sample 1 holds a uint64 past int64 by design: not damage
                                refused |= !e.getMessage().contains("does not fit in");
                            }
                        }
                        if (tensors != null) {
                            try {
                                tensors.fill(i, slots.slot(0));
                            } catch (MdsFormatException e) {
                                requireNamed(e, dir);
                                requireSample(e, i);
                                refused |= !e.getMessage().contains("does not fit in");
                            }
                        }
                    } catch (MdsFormatException e) {
                        requireNamed(e, dir);
                        refused = true;
                        if (!e.getMessage().contains(" in the shard)")) {
                            break; // the shard itself is refused: its other samples would say the same
                        }
                    }
                }
            }
        }
        return refused ? Outcome.REFUSED_READ : Outcome.CLEAN;
    }

    private static void readColumn(MdsDataset ds, MdsSample s, String c) {
        MdsEncoding e = ds.column(c).encoding();
        s.segment(c);
        switch (e.kind()) {
            case STR, JSON, STR_DECIMAL -> s.string(c);
            case STR_INT -> {
                s.string(c);
                s.doubleValue(c);
            }
            case STR_FLOAT -> s.doubleValue(c);
            case SCALAR -> {
                s.tensor(c);
                s.doubleValue(c);
            }
            case NDARRAY -> s.tensor(c);
            case PIL -> s.pil(c);
            case LIST_PIL -> {
                for (MemorySegment item : s.items(c)) {
                    s.pil(item);
                }
            }
            case LIST_JPEG, LIST_PNG, JPEG_ARRAY -> s.items(c);
            default -> s.bytes(c);
        }
    }

    /** A damaged sample's typed position is that sample, where the error gives one. */
    private static void requireSample(MdsFormatException e, long index) {
        if (e.position() instanceof DataPosition.Item(String unit, long at) && (!unit.equals("sample") || at != index)) {
            throw new IllegalStateException("reading sample " + index + " failed at " + e.position() + ": "
                    + e.getMessage(), e);
        }
    }

    private static void requireNamed(MdsFormatException e, Path dir) {
        FormatErrors.requireNamed(e, dir, false, MdsFormatException.class);
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path f : s.toList()) {
                Files.copy(f, to.resolve(f.getFileName().toString()));
            }
        }
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
