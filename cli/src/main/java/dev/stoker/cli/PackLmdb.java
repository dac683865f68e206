package dev.stoker.cli;

import dev.stoker.formats.lmdb.LmdbLayout;
import dev.stoker.formats.lmdb.LmdbWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * {@code stoker pack --to lmdb}: the samples into one LMDB environment in W8's layout (what W8's
 * PyTorch dataset and {@code LmdbDataset.open} read): sample {@code i} of the written order under
 * key {@code "%06d"}, {@code __len__} the number of samples, and for an image folder
 * {@code __labels__}, one uint8 class index per sample.
 */
final class PackLmdb {
    private PackLmdb() {}

    /** What was written, for the summary. */
    record Written(Path path, long samples, long fileBytes, boolean labelled) {}

    /** The layout for a source: labels for an image folder, none for the others. */
    static LmdbLayout layout(PackSource source) {
        return source.classes().isEmpty() ? LmdbLayout.w8().withoutLabels() : LmdbLayout.w8();
    }

    /** The one field that becomes the value: an image folder's image (its label goes to __labels__), or the only field. */
    static List<PackSource.Field> values(PackSource.Item item) {
        return item.label() < 0 ? item.fields()
                : item.fields().stream().filter(f -> !f.extension().equals("cls") || f.file() != null).toList();
    }

    /** Why the source cannot go into LMDB, or null when it can (checked before anything is written). */
    static String problem(PackSource source) {
        if (source.classes().size() > 256) {
            return "--to lmdb stores each label in one byte (W8's __labels__), and the image folder has "
                    + source.classes().size() + " classes; at most 256 fit (pack it --to tar)";
        }
        for (PackSource.Item item : source.samples()) {
            List<PackSource.Field> values = values(item);
            if (values.size() != 1) {
                return "--to lmdb stores one value per sample, and sample " + item.key() + " has " + values.size()
                        + " files (" + values.stream().map(PackSource.Field::extension).collect(Collectors.joining(", "))
                        + "); pack it --to tar, or keep one file per name";
            }
        }
        return null;
    }

    /** A writer of a new environment at {@code dir} for {@code samples} values of {@code bytes} in all. */
    static LmdbWriter open(Path path, PackSource source, long samples, long bytes, boolean overwrite,
                           boolean singleFile) {
        return LmdbWriter.builder(path).layout(layout(source)).overwrite(overwrite).singleFile(singleFile)
                .expect(samples, bytes).build();
    }

    /**
     * Writes {@code order} with {@code writer} and commits it, reporting each sample to the progress.
     *
     * @throws IOException when an input file cannot be read (the writer is aborted then, deleting
     *                     what it wrote)
     */
    static Written write(LmdbWriter writer, List<PackSource.Item> order, PackProgress progress) throws IOException {
        boolean labelled = writer.layout().labelsKey() != null;
        try {
            for (PackSource.Item item : order) {
                PackSource.Field field = values(item).getFirst();
                byte[] value = field.read();
                if (labelled) {
                    writer.append(value, item.label());
                } else {
                    writer.append(value);
                }
                progress.sample(field.input() ? 1 : 0, value.length);
            }
            writer.commit();
        } catch (IOException | RuntimeException e) {
            writer.abort();
            throw e;
        }
        long fileBytes = Files.size(writer.dataFile());
        return new Written(writer.path(), writer.count(), fileBytes, labelled);
    }

    /** The summary's line about the environment. */
    static void describe(PrintWriter out, Written w) {
        String last = w.samples() == 0 ? "" : ".." + PackSource.key(w.samples() - 1, w.samples());
        out.printf(Locale.ROOT, "  wrote the LMDB environment %s: keys 000000%s, __len__%s; data file %s%n", w.path(),
                last, w.labelled() ? ", __labels__" : "", ByteSize.format(w.fileBytes()));
    }
}
