package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stoker.data.SampleStream;
import dev.stoker.data.StreamingDataset;
import dev.stoker.loader.BatchIterator;
import dev.stoker.loader.DataLoader;
import dev.stoker.loader.LoaderState;
import dev.stoker.loader.StreamState;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** A loader's state goes through Jackson as it is, and stays small. */
class LoaderStateJsonTest {

    @Test
    void roundTripsThroughJacksonUnderAKilobyte() throws Exception {
        LoaderState state = new LoaderState(7, 1234, new long[] {1236, 1240}, -42, 1_281_167, 20_019);
        ObjectMapper json = new ObjectMapper();

        String text = json.writeValueAsString(state);
        LoaderState back = json.readValue(text, LoaderState.class);

        assertThat(back).isEqualTo(state);
        assertThat(text.length()).isLessThan(1024);
        assertThat(text).contains("\"epoch\":7", "\"nextBatch\":1234", "\"deliveredAhead\":[1236,1240]");
    }

    @Test
    void aStreamingStateWithSixteenWorkersToo() throws Exception {
        StreamingDataset<Long> counting = ctx -> SampleStream.of(LongStream.range(0, 10_000).boxed().iterator());
        LoaderState state;
        try (DataLoader<Long> loader = DataLoader.builder(counting).batchSize(32).numWorkers(16).seed(5).build()) {
            BatchIterator it = loader.iterator();
            for (int i = 0; i < 37; i++) {
                it.next().close();
            }
            state = loader.state();
        }
        ObjectMapper json = new ObjectMapper();
        String text = json.writeValueAsString(state);
        LoaderState back = json.readValue(text, LoaderState.class);

        assertThat(back).isEqualTo(state);
        assertThat(back.streams().samples()[4]).isEqualTo(3 * 32);
        assertThat(text.length()).isLessThan(1024);
    }

    @Test
    void aReshardedStateKeepsItsCursor() throws Exception {
        StreamState streams = new StreamState(0, 1, 4, 0, 3, new long[] {8, 4}, new long[] {2, 1},
                new boolean[] {false, true}, new long[] {-1, 5, 0, 13});
        LoaderState state = new LoaderState(2, 3, new long[0], 7, -1, -1, streams);
        ObjectMapper json = new ObjectMapper();

        LoaderState back = json.readValue(json.writeValueAsString(state), LoaderState.class);

        assertThat(back).isEqualTo(state);
        assertThat(back.streams().start()).containsExactly(-1, 5, 0, 13);
    }

    /** A forged or damaged state is refused while it is read, with an IllegalArgumentException saying what is wrong. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
        "{\"epoch\":1,\"nextBatch\":2,\"seed\":7,\"datasetSize\":100,\"batchesPerEpoch\":10}| deliveredAhead",
        "{\"epoch\":9223372036854775807,\"nextBatch\":2,\"deliveredAhead\":[],\"seed\":7,\"datasetSize\":100,\"batchesPerEpoch\":10}| epoch",
        "{\"epoch\":1,\"nextBatch\":0,\"deliveredAhead\":[],\"seed\":7,\"datasetSize\":-1,\"batchesPerEpoch\":-1,\"streams\":{\"rank\":0,\"worldSize\":1,\"batchSize\":4,\"turn\":0,\"delivered\":0,\"batches\":[0],\"ended\":[false]}}| samples",
        "{\"epoch\":1,\"nextBatch\":3,\"deliveredAhead\":[],\"seed\":7,\"datasetSize\":-1,\"batchesPerEpoch\":-1,\"streams\":{\"rank\":0,\"worldSize\":1,\"batchSize\":4,\"turn\":0,\"delivered\":3,\"samples\":[8],\"batches\":[2],\"ended\":[false]}}| 3 batches were delivered",
    })
    void aForgedStateIsRefusedWhenRead(String json, String what) {
        ObjectMapper mapper = new ObjectMapper();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> mapper.readValue(json, LoaderState.class))
                .isInstanceOf(com.fasterxml.jackson.databind.JsonMappingException.class)
                .rootCause().isInstanceOf(IllegalArgumentException.class).hasMessageContaining(what.trim());
    }
}
