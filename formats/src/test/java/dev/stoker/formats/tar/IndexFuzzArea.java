package dev.stoker.formats.tar;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Damaged {@code .idx} sidecars: bytes changed or cut off (caught by the checksum), and the same
 * with the checksum made right again, as a buggy or hostile writer would: counts, offsets and
 * sizes rewritten (huge, negative, past the shard, overlapping the member before), a wrong shard
 * length, and an index of a shard rewritten since with the same length (its samples in another
 * order). Read by {@link IndexedTarDataset}: every sample it gives must be the one written.
 */
final class IndexFuzzArea implements FuzzArea {
    private static final long[] ODD = {-1, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 62, (1L << 62) + 1, 1L << 31,
        (1L << 32) + 3, 0, 1, 511, 512, 513};

    private final byte[] shard;
    private final byte[] reordered;
    private final byte[] index;
    private final List<Fixtures.Sample> samples;
    /** Where each member's offset field sits in the index. */
    private final List<Integer> memberFields = new ArrayList<>();

    IndexFuzzArea(Path work) {
        Path a = work.resolve("index-base.tar");
        samples = FuzzInputs.writeShard(a, 53, 16);
        List<Fixtures.Sample> shuffled = new ArrayList<>(samples);
        Collections.shuffle(shuffled, new Random(5));
        Path b = work.resolve("index-reordered.tar");
        FuzzInputs.writeShard(b, shuffled);
        try {
            shard = Files.readAllBytes(a);
            reordered = Files.readAllBytes(b);
            index = Files.readAllBytes(ShardIndex.sidecar(a));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        if (reordered.length != shard.length) {
            throw new AssertionError("the reordered shard should have the same length");
        }
        ByteBuffer in = ByteBuffer.wrap(index).order(ByteOrder.LITTLE_ENDIAN).position(ShardIndex.HEADER);
        for (int i = 0; i < samples.size(); i++) {
            in.position(in.position() + 2 + Short.toUnsignedInt(in.getShort(in.position())));
            int members = Short.toUnsignedInt(in.getShort());
            for (int m = 0; m < members; m++) {
                in.position(in.position() + 2 + Short.toUnsignedInt(in.getShort(in.position())));
                memberFields.add(in.position());
                in.position(in.position() + 16);
            }
        }
    }

    @Override
    public Set<Class<? extends RuntimeException>> refusals() {
        return Set.of(IndexFormatException.class, TarException.class);
    }

    @Override
    public Case make(long seed, Path work) throws IOException {
        Random rnd = new Random(seed);
        byte[] idx = index.clone();
        byte[] tar = shard;
        String what;
        switch ((int) (seed % 10)) {
            case 0 -> {
                int at = rnd.nextInt(idx.length);
                idx[at] ^= (byte) (1 + rnd.nextInt(255));
                what = "byte " + at + " changed";
            }
            case 1 -> {
                int at = rnd.nextInt(idx.length);
                idx = Arrays.copyOf(idx, at);
                what = "cut at " + at;
            }
            case 2 -> {
                int n = 1 + rnd.nextInt(3);
                for (int k = 0; k < n; k++) {
                    idx[ShardIndex.HEADER + rnd.nextInt(idx.length - ShardIndex.HEADER - 4)] ^= (byte) (1 + rnd.nextInt(255));
                }
                fixCrc(idx);
                what = n + " body bytes changed, checksum fixed";
            }
            case 3 -> {
                int at = ShardIndex.HEADER + rnd.nextInt(idx.length - ShardIndex.HEADER - 4);
                idx = Arrays.copyOf(idx, at + 4);
                fixCrc(idx);
                what = "cut at " + at + ", checksum fixed";
            }
            case 4 -> {
                int field = rnd.nextBoolean() ? 24 : 32;
                long value = rnd.nextBoolean() ? ODD[rnd.nextInt(ODD.length)] : rnd.nextLong();
                putLong(idx, field, value);
                fixCrc(idx);
                what = (field == 24 ? "samples" : "members") + " count " + value + ", checksum fixed";
            }
            case 5 -> {
                int m = rnd.nextInt(memberFields.size());
                boolean size = rnd.nextBoolean();
                long value = rnd.nextBoolean() ? ODD[rnd.nextInt(ODD.length)]
                        : rnd.nextBoolean() ? shard.length - rnd.nextInt(2048) : rnd.nextLong();
                putLong(idx, memberFields.get(m) + (size ? 8 : 0), value);
                fixCrc(idx);
                what = "member " + m + (size ? " size " : " offset ") + value + ", checksum fixed";
            }
            case 6 -> {
                int m = 1 + rnd.nextInt(memberFields.size() - 1);
                long before = getLong(idx, memberFields.get(m - 1));
                long beforeSize = getLong(idx, memberFields.get(m - 1) + 8);
                long offset = before + (beforeSize == 0 ? 0 : rnd.nextLong(beforeSize));
                putLong(idx, memberFields.get(m), offset);
                fixCrc(idx);
                what = "member " + m + " moved to " + offset + ", over the member before; checksum fixed";
            }
            case 7 -> {
                tar = reordered;
                what = "the shard rewritten since, same length, samples in another order";
            }
            case 8 -> {
                long value = rnd.nextBoolean() ? ODD[rnd.nextInt(ODD.length)] : shard.length + rnd.nextInt(2048) - 1024;
                putLong(idx, 16, value);
                fixCrc(idx);
                what = "shard length " + value + ", checksum fixed";
            }
            default -> {
                int extra = 1 + rnd.nextInt(64);
                idx = Arrays.copyOf(idx, idx.length + extra);
                fixCrc(idx);
                what = extra + " bytes appended, checksum fixed";
            }
        }
        Path file = FuzzInputs.write(work.resolve("case.tar"), tar);
        FuzzInputs.write(ShardIndex.sidecar(file), idx);
        return new Case(what, () -> {
            try (IndexedTarDataset ds = IndexedTarDataset.open(List.of(file.toString()),
                    IndexedTarDataset.MissingIndex.FAIL)) {
                List<Fixtures.Sample> got = new ArrayList<>();
                for (long i = 0; i < ds.size(); i++) {
                    TarSample s = ds.get(i);
                    java.util.Map<String, byte[]> fields = new java.util.LinkedHashMap<>();
                    for (String e : s.extensions()) {
                        fields.put(e, s.bytes(e));
                    }
                    got.add(new Fixtures.Sample(s.key(), fields));
                }
                FuzzInputs.assertSame(got, samples, file.toString());
                return got;
            }
        }, List.of(file.toString()));
    }

    static void fixCrc(byte[] idx) {
        CRC32C crc = new CRC32C();
        crc.update(idx, 0, idx.length - 4);
        ByteBuffer.wrap(idx).order(ByteOrder.LITTLE_ENDIAN).putInt(idx.length - 4, (int) crc.getValue());
    }

    private static void putLong(byte[] b, int at, long v) {
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong(at, v);
    }

    private static long getLong(byte[] b, int at) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong(at);
    }
}
