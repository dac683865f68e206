package dev.stoker.formats.jsonl;

import dev.stoker.data.DataFormatException;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.testing.Damage;
import dev.stoker.testing.FormatErrors;
import dev.stoker.testing.FuzzSubject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.SplittableRandom;

/**
 * JSONL under the corruption fuzz: a damaged file (plain or gzip), or a damaged line index beside
 * a sound file, read whole by the map-style dataset (plain files) and by the stream. A refusal is
 * a {@link JsonlLineException} naming the file and line, or a {@link JsonlIndexException} naming the
 * file or its sidecar.
 */
public final class JsonlFuzzSubject implements FuzzSubject {
    private static final Class<?>[] FORMAT_ERRORS = {JsonlLineException.class, JsonlIndexException.class};
    private static final WorkerContext ONE = new WorkerContext(0, 1, 0, 1, 0, 0);

    @Override
    public Case damage(Path fixtures, String base, Path work, long seed) throws IOException {
        SplittableRandom rnd = new SplittableRandom(seed);
        try (var old = Files.list(work)) {
            for (Path p : old.toList()) {
                Files.delete(p);
            }
        }
        Path file = work.resolve(base);
        Files.copy(fixtures.resolve(base), file, StandardCopyOption.REPLACE_EXISTING);
        boolean sidecar = !base.endsWith(".gz") && rnd.nextInt(3) == 0;
        Path target = file;
        if (sidecar) { // the index of a sound file is damaged
            JsonlDataset.lines(file).close();
            target = JsonlDataset.sidecarOf(file);
        }
        Damage.Done d = Damage.apply(Files.readAllBytes(target), rnd);
        Files.write(target, d.bytes());
        return new Case(file, (sidecar ? "sidecar: " : "") + d.what());
    }

    @Override
    public Outcome readAll(Case c) throws IOException {
        Path file = c.path();
        boolean refusedOpen = false;
        boolean refusedRead = false;
        if (!file.toString().endsWith(".gz")) {
            try (JsonlDataset<String> ds = JsonlDataset.field(file, "text")) {
                for (long i = 0; i < ds.size(); i++) {
                    try {
                        ds.get(i);
                    } catch (RuntimeException e) {
                        FormatErrors.requireNamed(e, file, true, FORMAT_ERRORS);
                        refusedRead = true;
                    }
                }
            } catch (IOException | DataFormatException e) { // a damaged index is refused at open
                FormatErrors.requireNamed(e, file, false, FORMAT_ERRORS);
                refusedOpen = true;
            }
        }
        try (SampleStream<String> s = JsonlStream.field(List.of(file), "text").open(ONE)) {
            for (int n = 0; s.hasNext(); n++) {
                if (n > 100_000) {
                    throw new IllegalStateException("the stream of " + file + " does not end");
                }
                try {
                    s.next();
                } catch (JsonlLineException e) {
                    FormatErrors.requireNamed(e, file, true, FORMAT_ERRORS);
                    refusedRead = true;
                }
            }
        }
        return refusedOpen ? Outcome.REFUSED_OPEN : refusedRead ? Outcome.REFUSED_READ : Outcome.CLEAN;
    }
}
