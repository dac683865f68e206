package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stoker.loader.LoaderState;
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
}
