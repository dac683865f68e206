package dev.stoker.formats.tar;

import dev.stoker.data.BatchSlots;
import dev.stoker.data.SampleLayout;
import dev.stoker.data.SampleStream;
import dev.stoker.data.WorkerContext;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Tensor fields of damaged members: {@code .npy} headers changed byte by byte or rewritten (shapes
 * that disagree with the field or overflow, other dtypes, a header length past the member, deep
 * nesting), members cut or grown, integer text of random bytes, raw members of another size, a
 * member missing. One sample of a shard of the fixture's samples is damaged; every sample is filled
 * into a batch row by {@link TarTensorStream#fill}.
 */
final class TensorFuzzArea implements FuzzArea {
    private static final WorkerContext ONE = new WorkerContext(0, 1, 0, 1, 0, 0);
    private static final String[] SHAPES = {"(2, 3)", "(3, 2)", "(6,)", "()", "(99999999999, 99999999999)",
        "(4611686018427387904, 4)", "(-1, 3)", "(2, 3, 0)", "(2, 3, 1)", "(9223372036854775807,)", "(2,3",
        "[2, 3]", "(2.0, 3)", "('2', 3)", "(" + "(".repeat(2000) + ")"};
    private static final String[] DESCRS = {"<f4", ">f4", "<f8", "|b1", "<U4", "|O", "<i4", "<f2", "f4", "<c8",
        "<f99999999999", "", "<V16", "<u8"};

    private final List<Fixtures.Sample> samples;

    TensorFuzzArea(Path work) {
        samples = Fixtures.readAll(List.of(Fixtures.tar("tensors-0.tar")));
    }

    @Override
    public Set<Class<? extends RuntimeException>> refusals() {
        return Set.of(TarSampleException.class);
    }

    @Override
    public Case make(long seed, Path work) throws Exception {
        Random rnd = new Random(seed);
        int victim = rnd.nextInt(samples.size());
        Map<String, byte[]> fields = new LinkedHashMap<>(samples.get(victim).fields());
        byte[] x = fields.get("x.npy");
        int headerEnd = 10 + (x[8] & 0xFF) + ((x[9] & 0xFF) << 8);
        byte[] data = Arrays.copyOfRange(x, headerEnd, x.length);
        String what;
        switch ((int) (seed % 8)) {
            case 0 -> {
                byte[] bad = x.clone();
                int n = 1 + rnd.nextInt(3);
                for (int k = 0; k < n; k++) {
                    bad[rnd.nextInt(headerEnd)] = (byte) rnd.nextInt(256);
                }
                fields.put("x.npy", bad);
                what = n + " header bytes of .x.npy changed";
            }
            case 1 -> {
                String shape = SHAPES[rnd.nextInt(SHAPES.length)];
                String descr = rnd.nextInt(3) == 0 ? DESCRS[rnd.nextInt(DESCRS.length)] : "<f4";
                boolean fortran = rnd.nextInt(4) == 0;
                String dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False")
                        + ", 'shape': " + shape + ", }";
                fields.put("x.npy", npy(dict, data));
                what = ".x.npy header " + (dict.length() > 120 ? dict.substring(0, 120) + "..." : dict);
            }
            case 2 -> {
                byte[] bad = x.clone();
                int length = rnd.nextInt(1 << 16);
                bad[8] = (byte) length;
                bad[9] = (byte) (length >>> 8);
                if (rnd.nextBoolean()) {
                    bad[6] = (byte) (2 + rnd.nextInt(2)); // version 2 or 3: a 4-byte length
                }
                fields.put("x.npy", bad);
                what = ".x.npy header length " + length + ", version " + bad[6];
            }
            case 3 -> {
                int at = rnd.nextInt(x.length);
                fields.put("x.npy", Arrays.copyOf(x, at));
                what = ".x.npy cut at " + at;
            }
            case 4 -> {
                int extra = 1 + rnd.nextInt(100);
                fields.put("x.npy", Arrays.copyOf(x, x.length + extra));
                what = ".x.npy grown by " + extra;
            }
            case 5 -> {
                byte[] text = new byte[rnd.nextInt(rnd.nextBoolean() ? 30 : 400)];
                for (int i = 0; i < text.length; i++) {
                    text[i] = (byte) (rnd.nextBoolean() ? "0123456789 -+\t\n".charAt(rnd.nextInt(15)) : rnd.nextInt(256));
                }
                fields.put("cls", text);
                what = ".cls of " + text.length + " random bytes";
            }
            case 6 -> {
                fields.put("emb", new byte[rnd.nextInt(64)]);
                what = ".emb of " + fields.get("emb").length + " bytes";
            }
            default -> {
                String ext = List.of("x.npy", "y.npy", "t.npy", "cls", "emb").get(rnd.nextInt(5));
                fields.remove(ext);
                what = "." + ext + " missing";
            }
        }
        List<Fixtures.Sample> damaged = new ArrayList<>(samples);
        damaged.set(victim, new Fixtures.Sample(samples.get(victim).key(), fields));
        Path file = work.resolve("tensor-case.tar");
        FuzzInputs.writeShard(file, damaged);
        String key = samples.get(victim).key();
        return new Case("sample " + key + ": " + what, () -> fillAll(file), List.of(file.toString(),
                "sample \"" + key + "\""));
    }

    private static int fillAll(Path file) {
        TarTensorStream ds = TensorShards.fields(TarShardDataset.builder(List.of(file.toString())).build()).build();
        int filled = 0;
        try (Arena arena = Arena.ofConfined(); SampleStream<TarSample> s = ds.open(ONE)) {
            List<Tensor> tensors = new ArrayList<>();
            for (SampleLayout.Field f : ds.layout().fields()) {
                tensors.add(Tensor.allocate(arena, f.dtype(), f.shape().prepend(1)));
            }
            BatchSlots slots = new BatchSlots(ds.layout(), tensors);
            while (s.hasNext()) {
                ds.fill(s.next(), slots.slot(0));
                filled++;
            }
        }
        return filled;
    }

    /** A version 1.0 {@code .npy} of {@code dict} and {@code data}, its header padded as NumPy pads it. */
    static byte[] npy(String dict, byte[] data) {
        byte[] text = dict.getBytes(StandardCharsets.ISO_8859_1);
        int total = 10 + text.length + 1;
        int pad = (64 - total % 64) % 64;
        int headerLength = text.length + pad + 1;
        byte[] out = new byte[10 + headerLength + data.length];
        byte[] magic = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
        System.arraycopy(magic, 0, out, 0, 8);
        out[8] = (byte) headerLength;
        out[9] = (byte) (headerLength >>> 8);
        System.arraycopy(text, 0, out, 10, text.length);
        Arrays.fill(out, 10 + text.length, 10 + headerLength - 1, (byte) ' ');
        out[10 + headerLength - 1] = '\n';
        System.arraycopy(data, 0, out, 10 + headerLength, data.length);
        return out;
    }
}
