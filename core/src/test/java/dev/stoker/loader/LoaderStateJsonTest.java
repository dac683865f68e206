package dev.stoker.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link LoaderState#toJson()} writes the text Jackson writes for the record, and
 * {@link LoaderState#fromJson} reads it back strictly: real states round-trip, a damaged text is
 * an {@link IllegalArgumentException} saying where, and whatever it accepts Jackson reads as the
 * same state.
 */
class LoaderStateJsonTest {
    private static final ObjectMapper JACKSON = new ObjectMapper();

    private static LoaderState realState(Random r) {
        return r.nextBoolean() ? ForgedStateTest.realMapState(r, 37 + r.nextInt(3) * 4)
                : ForgedStateTest.realStreamState(r);
    }

    @Test
    void realStatesRoundTripAndMatchJacksonBothWays() throws Exception {
        for (int round = 0; round < 150; round++) {
            LoaderState state = realState(new Random(round));
            String ours = state.toJson();
            assertThat(ours).as("round %d", round).isEqualTo(JACKSON.writeValueAsString(state));
            assertThat(LoaderState.fromJson(ours)).isEqualTo(state);
            assertThat(JACKSON.readValue(ours, LoaderState.class)).isEqualTo(state);
        }
    }

    @Test
    void aStateWithoutRankAndWorldSizeReadsAsOneFromBeforeTheyWereRecorded() {
        LoaderState old = LoaderState.fromJson("{\"epoch\":0,\"nextBatch\":3,\"deliveredAhead\":[],\"seed\":3,"
                + "\"datasetSize\":1000,\"batchesPerEpoch\":10,\"streams\":null}");
        assertThat(old).isEqualTo(new LoaderState(0, 3, new long[0], 3, 1000, 10));
        assertThat(LoaderState.fromJson(" {\n \"epoch\" : 2 , \"nextBatch\":0,\"deliveredAhead\":[ ],\"seed\":-5,"
                + "\"datasetSize\":10,\"batchesPerEpoch\":3}\n").seed()).isEqualTo(-5);
    }

    @Test
    void damagedTextIsRefusedSayingWhatIsWrong() {
        String good = LoaderState.ofMap(1, 2, new long[] {4}, 7, 37, 10, 0, 1).toJson();
        List<List<String>> cases = List.of(
                List.of("", "ends where a value should be"),
                List.of("[]", "is a JSON object"),
                List.of(good.substring(0, good.length() - 1), "ends where '}' should be"),
                List.of(good + "{}", "text after the end"),
                List.of(good.replace("\"seed\":7", "\"seed\":7.5"), "whole numbers only"),
                List.of(good.replace("\"seed\":7", "\"seed\":1e3"), "whole numbers only"),
                List.of(good.replace("\"seed\":7", "\"seed\":99999999999999999999"), "does not fit a long"),
                List.of(good.replace("\"seed\":7", "\"seed\":07"), "not a JSON number"),
                List.of(good.replace("\"seed\":7", "\"seed\":\"7\""), "starts no value"),
                List.of(good.replace("\"seed\":7", "\"seed\":7,\"seed\":8"), "has \"seed\" twice"),
                List.of(good.replace("\"seed\":7", "\"sneed\":7"), "has no field \"sneed\""),
                List.of(good.replace("\"seed\":7,", ""), "seed is a whole number, not missing"),
                List.of(good.replace("\"rank\":0", "\"rank\":4294967296"), "rank is an int"),
                List.of(good.replace("[4]", "[[4]]"), "hold numbers or booleans"),
                List.of(good.replace("[4]", "[true]"), "deliveredAhead[0] is a whole number"),
                List.of(good.replace("\"streams\":null", "\"streams\":5"), "streams are an object or null"),
                List.of(good.replace("\"streams\":null", "\"streams\":{\"rank\":0,\"x\":1}"), "has no field \"x\""),
                List.of(good.replace("[4]", "[1]"), "must ascend"));
        for (List<String> c : cases) {
            assertThatThrownBy(() -> LoaderState.fromJson(c.get(0))).as(c.get(0))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(c.get(1));
        }
        assertThatThrownBy(() -> LoaderState.fromJson("[".repeat(StateJson.MAX_CHARS + 1)))
                .hasMessageContaining("at most");
    }

    /** Random edits of real states' text: refused with an IllegalArgumentException, or a state Jackson reads the same. */
    @Test
    void editedTextIsRefusedOrReadAsJacksonReadsIt() {
        String alphabet = "{}[],:\"-0123456789 truefalsnl.eE\\x";
        int accepted = 0;
        for (int round = 0; round < 3_000; round++) {
            Random r = new Random(round);
            StringBuilder text = new StringBuilder(realState(new Random(round % 40)).toJson());
            for (int edits = 1 + r.nextInt(3); edits > 0 && !text.isEmpty(); edits--) {
                int at = r.nextInt(text.length());
                switch (r.nextInt(4)) {
                    case 0 -> text.deleteCharAt(at);
                    case 1 -> text.insert(at, alphabet.charAt(r.nextInt(alphabet.length())));
                    case 2 -> text.setCharAt(at, alphabet.charAt(r.nextInt(alphabet.length())));
                    default -> text.setLength(at);
                }
            }
            String edited = text.toString();
            LoaderState ours;
            try {
                ours = LoaderState.fromJson(edited);
            } catch (IllegalArgumentException refused) {
                assertThat(refused.getMessage()).as(edited).isNotBlank();
                continue;
            }
            accepted++;
            try {
                assertThat(JACKSON.readValue(edited, LoaderState.class)).as(edited).isEqualTo(ours);
            } catch (Exception e) {
                throw new AssertionError("accepted, but Jackson refuses " + edited, e);
            }
        }
        assertThat(accepted).as("some edits (a digit for a digit) still make a state").isPositive();
    }
}
