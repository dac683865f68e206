package dev.stoker.text;

import dev.stoker.contract.FillableDatasetContract;
import dev.stoker.contract.FillableStreamContract;
import dev.stoker.contract.MapDatasetContract;
import dev.stoker.contract.StreamDatasetContract;
import dev.stoker.data.Dataset;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Nested;

/** The text datasets run the contracts that apply to them: windows across documents, tokenized texts. */
class TextContractsTest {
    static final int EOS = 9999;

    static List<int[]> docs() {
        return DocumentWindowDatasetTest.documents(new SplittableRandom(3), 12);
    }

    /** Documents {@code i} to global worker {@code i % workers}. */
    static <T> StreamingDataset<T> dealt(List<T> items) {
        return ctx -> {
            List<T> mine = new ArrayList<>();
            for (int i = ctx.globalWorkerId(); i < items.size(); i += ctx.globalWorkers()) {
                mine.add(items.get(i));
            }
            return SampleStream.of(mine.iterator());
        };
    }

    static DocumentWindowDataset windows() {
        return DocumentWindowDataset.builder(TokenDocuments.of(docs()), 8).eos(EOS).positionIds(true).documentIds(true)
                .build();
    }

    static DocumentWindowStream windowStream() {
        return DocumentWindowStream.of(dealt(docs()), 8, EOS).withBoundaries(true, true);
    }

    static List<String> texts() {
        return List.of("one", "two words", "", "ünïcödé", "a longer text of several words", "x", "yz", "end.");
    }

    static String tensors(Map<String, Tensor> s) {
        Map<String, String> out = new TreeMap<>();
        s.forEach((k, t) -> out.put(k, t.dtype() + " " + t.shape() + " " + Arrays.toString(t.toLongArray())));
        return out.toString();
    }

    @Nested
    class Windows extends MapDatasetContract<Map<String, Tensor>> {
        protected Opened<Map<String, Tensor>> open() {
            return Opened.of(windows());
        }

        protected Object content(Map<String, Tensor> s) {
            return tensors(s);
        }

        @Override
        protected boolean closeInvalidatesReads() {
            return false;
        }
    }

    @Nested
    class WindowsFill extends FillableDatasetContract<Map<String, Tensor>> {
        protected Opened<Map<String, Tensor>> open() {
            return Opened.of(windows());
        }
    }

    @Nested
    class WindowStream extends StreamDatasetContract<TokenRun> {
        protected Opened<TokenRun> open() {
            return Opened.of(windowStream());
        }

        protected Object content(TokenRun r) {
            return Arrays.toString(r.tokens()) + Arrays.toString(r.documentStarts());
        }

        /** Each worker concatenates its own documents, so windows differ from layout to layout. */
        @Override
        protected boolean samplesDependOnTheLayout() {
            return true;
        }
    }

    @Nested
    class WindowStreamFill extends FillableStreamContract<TokenRun> {
        protected Opened<TokenRun> open() {
            return Opened.of(windowStream());
        }
    }

    @Nested
    class Tokenized extends MapDatasetContract<int[]> {
        protected Opened<int[]> open() {
            List<String> t = texts();
            Dataset<String> source = new Dataset<>() {
                public long size() {
                    return t.size();
                }

                public String get(long i) {
                    return t.get((int) Objects.checkIndex(i, (long) t.size()));
                }
            };
            return Opened.of(TokenizedDataset.of(source, new TokenizedStreamTest.CodePoints()));
        }

        protected Object content(int[] ids) {
            return ids;
        }

        @Override
        protected boolean closeInvalidatesReads() {
            return false;
        }
    }

    @Nested
    class TokenizedTexts extends StreamDatasetContract<int[]> {
        protected Opened<int[]> open() {
            return Opened.of(TokenizedStream.of(dealt(texts()), new TokenizedStreamTest.CodePoints()).withBatchTexts(3));
        }

        protected Object content(int[] ids) {
            return ids;
        }
    }

}
