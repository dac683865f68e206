package dev.stoker.formats.parquet;

import dev.stoker.testing.FormatErrors;
import dev.stoker.testing.FuzzSubject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Parquet under the corruption fuzz: a copy damaged by {@link ParquetCorruptor}, opened and read
 * row by row through every getter, and through the fill path over the fixed-width columns. A
 * refusal is a {@link ParquetFormatException} naming the file, and the row where a read failed,
 * and not one the heap running out caused: the reader turns an allocation that fails into a named
 * refusal, which would hide a size it let through unchecked (the case JVM's heap is small, so such
 * a size fails to allocate).
 */
public final class ParquetFuzzSubject implements FuzzSubject {
    @Override
    public Case damage(Path fixtures, String base, Path work, long seed) throws IOException {
        Path file = work.resolve("case.parquet");
        Files.copy(fixtures.resolve(base), file, StandardCopyOption.REPLACE_EXISTING);
        return new Case(file, ParquetCorruptor.damage(file, seed));
    }

    @Override
    public Outcome readAll(Case c) {
        Path file = c.path();
        ParquetDataset ds;
        try {
            ds = ParquetDataset.open(file);
        } catch (ParquetFormatException e) {
            requireChecked(e, file, false);
            return Outcome.REFUSED_OPEN;
        }
        boolean refused = false;
        try (ds) {
            for (long i = 0; i < ds.size(); i++) {
                try {
                    ParquetRow r = ds.get(i);
                    r.toMap();
                    r.toString();
                } catch (ParquetFormatException e) {
                    requireChecked(e, file, true);
                    refused = true;
                }
            }
            List<FillColumn> fixed = new ArrayList<>();
            for (ParquetColumn col : ds.columns()) {
                if (col.kind().isNumeric() && !col.kind().isList()) {
                    fixed.add(FillColumn.scalar(col.name()));
                }
            }
            if (!fixed.isEmpty()) {
                ParquetTensorDataset t = ds.tensors(fixed.toArray(FillColumn[]::new));
                for (long i = 0; i < t.size(); i++) {
                    try {
                        t.get(i);
                    } catch (ParquetFormatException e) {
                        requireChecked(e, file, true);
                        refused = true;
                    }
                }
            }
        }
        return refused ? Outcome.REFUSED_READ : Outcome.CLEAN;
    }

    private static void requireChecked(ParquetFormatException e, Path file, boolean position) {
        FormatErrors.requireNamed(e, file, position, ParquetFormatException.class);
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof OutOfMemoryError) {
                throw new AssertionError("refused only because the heap ran out, so a size went unchecked: "
                        + e.getMessage(), e);
            }
        }
    }
}
