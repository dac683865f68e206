package dev.stoker.formats.hdf5;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seeded corruption by the thousand (see {@link Hdf5Corruptor}) of the fixtures h5py wrote: every
 * damaged file either reads (every row of every array; the values may be wrong where only data bytes
 * were hit) or is refused with an {@link Hdf5FormatException} whose message names the file. Never
 * another exception, an error, a hang (a per-case guard catches those, it does not time anything)
 * or an allocation sized by a corrupt field (each case's allocations are counted and bounded).
 *
 * <p>A failing case prints its seed; {@code Hdf5Corruptor.of(fixture).damage(seed)} replays it.
 */
class Hdf5CorruptionFuzzTest {
    /**
     * Far more than opening a 20 kB file takes, far less than the sizes corrupt fields claim
     * (2^31 and up); reading rows may add a few times their own bytes (the sample's tensors, and
     * the per-chunk bookkeeping of a shape the file claims and its length allows).
     */
    static final long MAX_CASE_ALLOCATION = 64L << 20;
    static final long ALLOCATION_PER_SAMPLE_BYTE = 16;
    /** Rows read in order from the start of a file that opens; then a spread up to the last one. */
    static final int ROWS_IN_ORDER = 256;
    static final Duration HANG_GUARD = Duration.ofSeconds(20);

    enum Outcome { READ, REFUSED }

    /** What a case did; {@code allowed}: the allocation bound, grown by the sample bytes read. */
    record Result(Outcome outcome, Throwable unexpected, long allocated, long allowed) {
    }

    @ParameterizedTest(name = "{0}: {1} cases")
    @CsvSource({
            "contiguous.h5, 1200, data labels",
            "chunked.h5, 1000, data labels sparse",
            "chunked_gzip.h5, 1000, data labels",
            "chunked_lzf.h5, 400, data labels",
            "big_endian.h5, 400, data labels",
            "fill.h5, 600, i32 f64 i16be gzip contig_f32 contig_i64be never_contig early",
            "fill_latest.h5, 600, fixed fixed_gzip ext bt2 single contig",
    })
    void everyDamagedFileReadsOrIsRefusedNamingTheFile(String fixture, int cases, String arrays, @TempDir Path dir)
            throws IOException {
        Hdf5Corruptor corruptor = Hdf5Corruptor.of(fixture);
        String[] names = arrays.split(" ");
        List<String> failures = new ArrayList<>();
        int refused = 0;
        for (int i = 0; i < cases; i++) {
            long seed = (long) fixture.hashCode() << 20 | i;
            Hdf5Corruptor.Damage damage = corruptor.damage(seed);
            Path file = dir.resolve(fixture.replace(".h5", "") + "-seed-" + seed + ".h5");
            Files.write(file, damage.bytes());
            Result r = assertTimeoutPreemptively(HANG_GUARD, () -> readAll(file, names),
                    () -> fixture + " seed " + seed + " hangs: " + damage.description());
            Files.delete(file);
            if (r.unexpected() != null) {
                failures.add(fixture + " seed " + seed + " (" + damage.description() + "): " + trace(r.unexpected()));
            } else if (r.allocated() > r.allowed()) {
                failures.add(fixture + " seed " + seed + " (" + damage.description() + "): allocated "
                        + r.allocated() + " bytes, more than " + r.allowed());
            }
            refused += r.outcome() == Outcome.REFUSED ? 1 : 0;
        }

        assertThat(failures).as("%d of %d cases failed; the first ones", failures.size(), cases)
                .satisfies(f -> assertThat(f.subList(0, Math.min(8, f.size()))).isEmpty());
        assertThat(refused).as("damage detected in %s", fixture).isGreaterThan(cases / 10);
    }

    /** Opens the file and reads every row of every array: a clean read or an Hdf5FormatException naming it. */
    static Result readAll(Path file, String[] arrays) {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        long allowed = MAX_CASE_ALLOCATION;
        try (Hdf5Dataset ds = Hdf5Dataset.open(file, arrays)) {
            long n = ds.size();
            for (long i = 0; i < n; i = next(i, n)) {
                allowed += ALLOCATION_PER_SAMPLE_BYTE * ds.layout().sampleBytes();
                ds.get(i);
            }
            return new Result(Outcome.READ, null, threads.getCurrentThreadAllocatedBytes() - before, allowed);
        } catch (Hdf5FormatException e) {
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            if (e.getMessage() == null || !e.getMessage().contains(file.getFileName().toString())) {
                return new Result(Outcome.REFUSED, new AssertionError("the message does not name the file", e),
                        allocated, allowed);
            }
            if (!e.source().contains(file.getFileName().toString()) || e.position() == null) {
                // one error family: the file is a field as well as words (the loader reports it alike)
                return new Result(Outcome.REFUSED, new AssertionError("the source field '" + e.source()
                        + "' is not the file", e), allocated, allowed);
            }
            return new Result(Outcome.REFUSED, null, allocated, allowed);
        } catch (Throwable t) { // anything else is the finding: report it with its seed, do not rethrow
            return new Result(Outcome.READ, t, threads.getCurrentThreadAllocatedBytes() - before, allowed);
        }
    }

    /** Every row up to ROWS_IN_ORDER, then 64 more spread to the last (a corrupt count may claim millions). */
    private static long next(long i, long n) {
        if (i + 1 < ROWS_IN_ORDER || i + 1 >= n) {
            return i + 1;
        }
        return Math.min(n - 1, i + Math.max(1, (n - ROWS_IN_ORDER) / 64));
    }

    private static String trace(Throwable t) {
        StringBuilder s = new StringBuilder(t.toString());
        StackTraceElement[] st = t.getStackTrace();
        for (int i = 0; i < Math.min(6, st.length); i++) {
            s.append("\n    at ").append(st[i]);
        }
        if (t.getCause() != null) {
            s.append("\n  caused by ").append(t.getCause());
        }
        return s.toString();
    }
}
