package dev.stoker.formats.hdf5;

import dev.stoker.random.Seeds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Seeded damage to an HDF5 file, weighted towards its structures: the superblock, object headers
 * (whose first bytes hold the dataspace, datatype, layout and filter messages), B-tree nodes (the
 * chunk index), heaps and symbol tables, as listed in the fixture's {@code .regions} file
 * (make_fixtures.py writes it with h5py); less often the raw data or anywhere at all. A case is
 * fully given by its seed: {@code Hdf5Corruptor.of(fixture).damage(seed)} replays it.
 */
final class Hdf5Corruptor {
    /** A region of the file: kind (superblock, objectheader, btree, heap, symbols, raw) at [offset, +length). */
    record Region(String kind, int offset, int length) {
    }

    /** Damaged bytes and what was done to them, for the failure message. */
    record Damage(byte[] bytes, String description) {
    }

    private final byte[] good;
    private final List<Region> regions;

    private Hdf5Corruptor(byte[] good, List<Region> regions) {
        this.good = good;
        this.regions = regions;
    }

    static Hdf5Corruptor of(String fixture) {
        Path file = Hdf5DatasetTest.fixture(fixture);
        try {
            byte[] good = Files.readAllBytes(file);
            List<Region> regions = new ArrayList<>();
            Path sidecar = file.resolveSibling(fixture.replace(".h5", ".regions"));
            for (String line : Files.readAllLines(sidecar)) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.trim().split("\\s+");
                int offset = Integer.parseInt(f[1]);
                int length = Math.min(Integer.parseInt(f[2]), good.length - offset);
                if (length > 0) {
                    regions.add(new Region(f[0], offset, length));
                }
            }
            return new Hdf5Corruptor(good, List.copyOf(regions));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int length() {
        return good.length;
    }

    /** The damage of case {@code seed}: one to three edits, or a truncation. */
    Damage damage(long seed) {
        Rng rnd = new Rng(seed);
        byte[] b = good.clone();
        StringBuilder what = new StringBuilder();
        int edits = 1 + rnd.below(3);
        for (int e = 0; e < edits; e++) {
            int kind = rnd.below(100);
            if (kind < 8) { // truncation ends the edits: later offsets may not exist
                int at = rnd.below(4) == 0 ? rnd.below(b.length) : offset(rnd, b.length);
                what.append("truncate to ").append(at).append("; ");
                return new Damage(Arrays.copyOf(b, at), what.toString());
            }
            int at = offset(rnd, b.length);
            if (kind < 30) {
                int bit = rnd.below(8);
                b[at] ^= (byte) (1 << bit);
                what.append("flip bit ").append(bit).append(" at ").append(at).append("; ");
            } else if (kind < 40) {
                int len = 1 + rnd.below(rnd.below(2) == 0 ? 8 : 96);
                int end = Math.min(b.length, at + len);
                Arrays.fill(b, at, end, (byte) 0);
                what.append("zero [").append(at).append(", ").append(end).append("); ");
            } else if (kind < 48) {
                b[at] = (byte) rnd.below(256);
                what.append("byte ").append(b[at] & 0xFF).append(" at ").append(at).append("; ");
            } else {
                int width = 1 << rnd.below(4); // u8, u16, u32, u64
                long value = interesting(rnd, width);
                for (int i = 0; i < width && at + i < b.length; i++) {
                    b[at + i] = (byte) (value >>> (8 * i)); // HDF5 metadata is little-endian
                }
                what.append("u").append(8 * width).append(" ").append(Long.toUnsignedString(value))
                        .append(" at ").append(at).append("; ");
            }
        }
        return new Damage(b, what.toString());
    }

    /** Boundary and random values: sizes, counts and addresses that overflow, are negative, undefined or just off. */
    private long interesting(Rng rnd, int width) {
        long mask = width == 8 ? -1L : (1L << (8 * width)) - 1;
        long v = switch (rnd.below(14)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> 2 + rnd.below(30);
            case 3 -> -1L; // all ones: HDF5's undefined address
            case 4 -> mask >>> 1; // the largest signed
            case 5 -> (mask >>> 1) + 1; // the smallest negative
            case 6 -> 1L << 31;
            case 7 -> 1L << 32;
            case 8 -> 1L << 60;
            case 9 -> good.length + rnd.below(64) - 32;
            case 10 -> good.length * (long) (2 + rnd.below(1000));
            case 11 -> 0x7FFF_FFF0L + rnd.below(16);
            case 12 -> rnd.bits();
            default -> rnd.below(4096);
        };
        return v & mask;
    }

    /** An offset, mostly inside the file's structures, their first bytes most of all. */
    private int offset(Rng rnd, int length) {
        int pick = rnd.below(100);
        List<Region> pool;
        if (pick < 15) {
            pool = kind("superblock");
        } else if (pick < 50) {
            pool = kind("objectheader");
        } else if (pick < 72) {
            pool = regions.stream().filter(r -> r.kind().equals("btree") || r.kind().equals("heap")
                    || r.kind().equals("symbols") || r.kind().equals("globalheap")).toList();
        } else if (pick < 82) {
            pool = kind("raw");
        } else {
            pool = List.of();
        }
        if (pool.isEmpty()) {
            return rnd.below(length);
        }
        Region r = pool.get(rnd.below(pool.size()));
        // Half the time the first 64 bytes: signatures, versions, sizes, the first messages.
        int span = rnd.below(2) == 0 ? Math.min(64, r.length()) : r.length();
        return Math.min(length - 1, r.offset() + rnd.below(span));
    }

    private List<Region> kind(String kind) {
        return regions.stream().filter(r -> r.kind().equals(kind)).toList();
    }

    /** SplitMix64 over the case's seed (dev.stoker.random.Seeds), so a case replays from its seed alone. */
    private static final class Rng {
        private final long stream;
        private long i;

        Rng(long seed) {
            this.stream = seed;
        }

        long bits() {
            return Seeds.splitMix(stream, i++);
        }

        int below(int bound) {
            return (int) Seeds.below(bits(), bound);
        }
    }
}
