package dev.stoker.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.data.ConcatDataset;
import dev.stoker.data.Dataset;
import dev.stoker.data.Datasets;
import dev.stoker.data.FillableDataset;
import dev.stoker.data.MixedSample;
import dev.stoker.data.MixedStreamingDataset;
import dev.stoker.data.SyntheticDataset;
import dev.stoker.data.SyntheticSample;
import dev.stoker.data.TensorDataset;
import dev.stoker.packing.PackedDataset;
import dev.stoker.packing.PackedRow;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.lang.foreign.Arena;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;

/** Every dataset of the core module runs the contracts that apply to it. */
class CoreDatasetContractsTest {

    /** Rows {@code (i, ...)} of two tensors, an f32 image-like one and an i64 label, in an arena the dataset's close closes. */
    static Opened tensors() {
        Arena arena = Arena.ofShared();
        Tensor x = Tensor.allocate(arena, DType.F32, Shape.of(11, 2, 3));
        Tensor y = Tensor.allocate(arena, DType.I64, Shape.of(11));
        for (int i = 0; i < 11 * 6; i++) {
            x.setFloat(i, i * 0.5f - 3);
        }
        for (int i = 0; i < 11; i++) {
            y.setLong(i, 100 - 7L * i);
        }
        Map<String, Tensor> named = new LinkedHashMap<>();
        named.put("x", x);
        named.put("y", y);
        return new Opened(TensorDataset.of(named), TensorDataset.of(x, y), arena);
    }

    /** Closes the arenas once, however often it is called (the contracts close twice). */
    static AutoCloseable closer(Arena... arenas) {
        return () -> {
            for (Arena a : arenas) {
                if (a.scope().isAlive()) {
                    a.close();
                }
            }
        };
    }

    record Opened(TensorDataset<Map<String, Tensor>> named, TensorDataset<List<Tensor>> listed, Arena arena) {}

    static Object content(Map<String, Tensor> s) {
        return List.of(Arrays.toString(s.get("x").toFloatArray()), s.get("y").getLong(0));
    }

    static Object content(List<Tensor> s) {
        return List.of(Arrays.toString(s.get(0).toFloatArray()), s.get(1).getLong(0));
    }

    static SyntheticDataset synthetic() {
        return SyntheticDataset.builder().size(9).shape(Shape.of(2, 4)).seed(3).build();
    }

    static Object content(SyntheticSample s) {
        return List.of(Arrays.toString(s.image().toFloatArray()), s.label());
    }

    @Nested
    class TensorMap extends MapDatasetContract<Map<String, Tensor>> {
        protected Opened<Map<String, Tensor>> open() {
            var o = tensors();
            return new Opened<>(o.named(), closer(o.arena()));
        }

        protected Object content(Map<String, Tensor> s) {
            return CoreDatasetContractsTest.content(s);
        }

        @Override
        protected boolean closeInvalidatesReads() {
            return false; // the dataset does not own the tensors' memory
        }
    }

    @Nested
    class TensorMapFill extends FillableDatasetContract<Map<String, Tensor>> {
        protected Opened<Map<String, Tensor>> open() {
            var o = tensors();
            return new Opened<>(o.named(), closer(o.arena()));
        }
    }

    @Nested
    class TensorListFill extends FillableDatasetContract<List<Tensor>> {
        protected Opened<List<Tensor>> open() {
            var o = tensors();
            return new Opened<>(o.listed(), closer(o.arena()));
        }
    }

    @Nested
    class Concat extends MapDatasetContract<List<Tensor>> {
        protected Opened<List<Tensor>> open() {
            var a = tensors();
            var b = tensors();
            // a mapped part is not fillable: the plain concatenation
            ConcatDataset<List<Tensor>> ds = Datasets.concat(Datasets.map(a.listed(), s -> s),
                    Datasets.subset(b.listed(), new long[] {4, 2}));
            assertThat(ds).isNotInstanceOf(FillableDataset.class);
            return new Opened<>(ds, closer(a.arena(), b.arena()));
        }

        protected Object content(List<Tensor> s) {
            return CoreDatasetContractsTest.content(s);
        }

        @Override
        protected boolean closeInvalidatesReads() {
            return false;
        }
    }

    @Nested
    class ConcatOfFillables extends MapDatasetContract<List<Tensor>> {
        protected Opened<List<Tensor>> open() {
            var a = tensors();
            var b = tensors();
            ConcatDataset<List<Tensor>> ds = Datasets.concat(a.listed(), Datasets.subset(b.listed(), new long[] {4, 2}));
            assertThat(ds).isInstanceOf(FillableDataset.class);
            return new Opened<>(ds, closer(a.arena(), b.arena()));
        }

        protected Object content(List<Tensor> s) {
            return CoreDatasetContractsTest.content(s);
        }

        @Override
        protected boolean closeInvalidatesReads() {
            return false;
        }
    }

    @Nested
    class ConcatFill extends FillableDatasetContract<Map<String, Tensor>> {
        protected Opened<Map<String, Tensor>> open() {
            var a = tensors();
            var b = tensors();
            Dataset<Map<String, Tensor>> ds = Datasets.concat(a.named(), b.named());
            return new Opened<>((FillableDataset<Map<String, Tensor>>) ds, closer(a.arena(), b.arena()));
        }
    }

    @Nested
    class Subset extends MapDatasetContract<SyntheticSample> {
        protected Opened<SyntheticSample> open() {
            Dataset<SyntheticSample> ds = Datasets.subset(Datasets.map(synthetic(), s -> s), new long[] {8, 0, 3, 3, 5, 1});
            assertThat(ds).isNotInstanceOf(FillableDataset.class);
            return Opened.of(ds);
        }

        protected Object content(SyntheticSample s) {
            return CoreDatasetContractsTest.content(s);
        }

        @Override
        protected boolean closeInvalidatesReads() {
            return false;
        }
    }

    @Nested
    class SubsetOfFillable extends MapDatasetContract<SyntheticSample> {
        protected Opened<SyntheticSample> open() {
            return Opened.of(Datasets.subset(synthetic(), new long[] {8, 0, 3, 3, 5, 1}));
        }

        protected Object content(SyntheticSample s) {
            return CoreDatasetContractsTest.content(s);
        }

        @Override
        protected boolean closeInvalidatesReads() {
            return false;
        }
    }

    @Nested
    class SubsetFill extends FillableDatasetContract<SyntheticSample> {
        protected Opened<SyntheticSample> open() {
            return Opened.of((FillableDataset<SyntheticSample>) Datasets.subset(synthetic(), new long[] {8, 0, 3, 3, 5, 1}));
        }
    }

    @Nested
    class Synthetic extends MapDatasetContract<SyntheticSample> {
        protected Opened<SyntheticSample> open() {
            return Opened.of(synthetic());
        }

        protected Object content(SyntheticSample s) {
            return CoreDatasetContractsTest.content(s);
        }

        @Override
        protected boolean closeInvalidatesReads() {
            return false;
        }
    }

    @Nested
    class SyntheticFill extends FillableDatasetContract<SyntheticSample> {
        protected Opened<SyntheticSample> open() {
            return Opened.of(synthetic());
        }
    }

    @Nested
    class Mapped extends MapDatasetContract<String> {
        protected Opened<String> open() {
            return Opened.of(Datasets.map(synthetic(), s -> s.label() + ":" + Arrays.toString(s.image().toFloatArray())));
        }

        protected Object content(String s) {
            return s;
        }

        @Override
        protected boolean closeInvalidatesReads() {
            return false;
        }
    }

    static PackedDataset packed() {
        int[] lengths = {5, 17, 3, 9, 12, 1, 30, 8, 8, 2, 14, 6, 20, 4};
        Dataset<int[]> examples = new Dataset<>() {
            public long size() {
                return lengths.length;
            }

            public int[] get(long i) {
                int[] ids = new int[lengths[(int) java.util.Objects.checkIndex(i, (long) lengths.length)]];
                Arrays.setAll(ids, k -> (int) (i * 100 + k));
                return ids;
            }
        };
        return PackedDataset.builder(examples, lengths, 32).windowSize(6).seed(2).build();
    }

    @Nested
    class PackedFilled extends MapDatasetContract<PackedRow> {
        protected Opened<PackedRow> open() {
            return Opened.of(packed().fillable());
        }

        protected Object content(PackedRow r) {
            return Arrays.deepToString(new Object[] {r.inputIds(), r.labels(), r.positionIds(), r.attentionMask(), r.cuSeqlens()});
        }

        @Override
        protected boolean closeInvalidatesReads() {
            return false;
        }
    }

    @Nested
    class PackedFill extends FillableDatasetContract<PackedRow> {
        protected Opened<PackedRow> open() {
            return Opened.of(packed().fillable());
        }

        /**
         * What the fill path writes, as a collate of the rows would (documented on
         * {@code PackedDataset.fillable()}): four int64 fields, not {@code DefaultCollate}'s record components.
         */
        @Override
        protected dev.stoker.collate.Collate<? super PackedRow> collate() {
            return (samples, memory) -> {
                Map<String, Tensor> out = new LinkedHashMap<>();
                int n = samples.size();
                int len = samples.getFirst().inputIds().length;
                String[] names = {"input_ids", "labels", "position_ids", "attention_mask"};
                for (int f = 0; f < names.length; f++) {
                    Tensor t = memory.allocate(DType.I64, Shape.of(n, len));
                    for (int r = 0; r < n; r++) {
                        PackedRow row = samples.get(r);
                        int[] v = switch (f) {
                            case 0 -> row.inputIds();
                            case 1 -> row.labels();
                            case 2 -> row.positionIds();
                            default -> row.attentionMask();
                        };
                        for (int k = 0; k < len; k++) {
                            t.setLong((long) r * len + k, v[k]);
                        }
                    }
                    out.put(names[f], t);
                }
                return out;
            };
        }
    }

    @Nested
    class Packed extends MapDatasetContract<PackedRow> {
        protected Opened<PackedRow> open() {
            int[] lengths = {5, 17, 3, 9, 12, 1, 30, 8, 8, 2, 14, 6, 20, 4};
            Dataset<int[]> examples = new Dataset<>() {
                public long size() {
                    return lengths.length;
                }

                public int[] get(long i) {
                    int[] ids = new int[lengths[(int) java.util.Objects.checkIndex(i, (long) lengths.length)]];
                    Arrays.setAll(ids, k -> (int) (i * 100 + k));
                    return ids;
                }
            };
            return Opened.of(PackedDataset.builder(examples, lengths, 32).windowSize(6).seed(2).build());
        }

        protected Object content(PackedRow r) {
            return Arrays.deepToString(new Object[] {r.inputIds(), r.labels(), r.positionIds(), r.attentionMask(), r.cuSeqlens()});
        }

        @Override
        protected boolean closeInvalidatesReads() {
            return false;
        }
    }

    @Nested
    class Mixed extends StreamDatasetContract<Long> {
        protected Opened<Long> open() {
            return Opened.of(MixedStreamingDataset.of(List.of(new RangeStream(0, 9), new RangeStream(1000, 5)), 0.7, 0.3)
                    .until(MixedStreamingDataset.Until.ALL_END));
        }

        protected Object content(Long s) {
            return s;
        }
    }

    @Nested
    class MixedFill extends FillableStreamContract<MixedSample<Long>> {
        protected Opened<MixedSample<Long>> open() {
            return Opened.of(MixedStreamingDataset.fillable(List.of(new RangeStream(0, 9), new RangeStream(1000, 5)),
                    0.7, 0.3).until(MixedStreamingDataset.Until.ALL_END));
        }
    }

    @Nested
    class Range extends StreamDatasetContract<Long> {
        protected Opened<Long> open() {
            return Opened.of(new RangeStream(0, 13));
        }

        protected Object content(Long s) {
            return s;
        }
    }

    @Nested
    class RangeFill extends FillableStreamContract<Long> {
        protected Opened<Long> open() {
            return Opened.of(new RangeStream(0, 13));
        }
    }
}
