package dev.stoker.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The hand-written parser: Python's json.loads's answers on the edge cases, strict everywhere else. */
class JsonFieldTest {
    private static String text(String json) throws Exception {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        return JsonField.string(b, b.length, "text");
    }

    private static void bad(String json, String phrase) {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> JsonField.string(b, b.length, "text")).as(json).isInstanceOf(JsonField.Bad.class)
                .hasMessageContaining(phrase);
    }

    @Test
    void escapesAndUnicodeAreDecoded() throws Exception {
        assertThat(text("{\"text\": \"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"}")).isEqualTo("a\"b\\c/d\b\f\n\r\t");
        assertThat(text("{\"text\": \"\\u00e9\\u4E2D\"}")).isEqualTo("é中");
        assertThat(text("{\"text\": \"\\ud83d\\ude00\"}")).isEqualTo("😀");
        assertThat(text("{\"text\": \"😀 raw\"}")).isEqualTo("😀 raw");
        assertThat(text("{\"text\": \"\\ud800\"}")).isEqualTo("\ud800"); // Python keeps a lone surrogate
        assertThat(text("{\"te\\u0078t\": \"escaped key\"}")).isEqualTo("escaped key");
    }

    @Test
    void onlyTheTopLevelFieldCountsAndTheLastOfARepeatedKeyWins() throws Exception {
        assertThat(text("{\"a\": {\"text\": \"inner\"}, \"b\": [{\"text\": 1}], \"text\": \"outer\"}")).isEqualTo("outer");
        assertThat(text("{\"text\": \"first\", \"text\": \"second\"}")).isEqualTo("second");
        assertThat(text("{\"a\": {\"text\": \"inner\"}}")).isNull();
        assertThat(text(" {} \r")).isNull();
    }

    @Test
    void pythonsNonStandardNumbersAreAccepted() throws Exception {
        assertThat(text("{\"x\": NaN, \"y\": -Infinity, \"z\": Infinity, \"n\": -0.5e+10, \"m\": 0, \"text\": \"ok\"}"))
                .isEqualTo("ok");
    }

    @Test
    void aValueOfAnotherTypeIsNotAString() {
        byte[] b = "{\"text\": 5}".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> JsonField.string(b, b.length, "text")).isInstanceOf(JsonField.NotAString.class)
                .hasMessageContaining("\"text\" is not a string");
        byte[] bad = "{\"text\": 5, }".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> JsonField.string(bad, bad.length, "text")).isInstanceOf(JsonField.Bad.class);
    }

    @Test
    void badJsonIsRefusedWithItsColumn() {
        bad("", "expected a JSON object, found the end of the line");
        bad("[1]", "column 1: expected a JSON object");
        bad("{\"text\": \"a\"", "column 13: expected '}', found the end of the line");
        bad("{\"text\": \"a\"} x", "column 15: unexpected 'x' after the object");
        bad("{text: \"a\"}", "expected a key in double quotes");
        bad("{\"text\" \"a\"}", "expected ':'");
        bad("{\"text\": \"a\",}", "expected a key in double quotes, found '}'");
        bad("{\"text\": \"a\tb\"}", "a raw control character (0x9)");
        bad("{\"text\": \"\\x\"}", "\\x is not a JSON escape");
        bad("{\"text\": \"\\u12\"}", "\\u needs four hex digits");
        bad("{\"text\": \"\\u12G4\"}", "\\u needs four hex digits");
        bad("{\"text\": \"open", "a string is not closed");
        bad("{\"n\": 01}", "expected '}'");
        bad("{\"n\": 1.}", "digits after its decimal point");
        bad("{\"n\": 1e}", "digits in its exponent");
        bad("{\"n\": -}", "expected a value");
        bad("{\"n\": tru}", "expected a value");
        bad("{\"n\": nan}", "expected a value");
        bad("{\"n\": [1,]}", "expected a value");
        bad("{\"n\": [1 2]}", "expected ']'");
    }

    @Test
    void invalidUtf8IsRefused() {
        byte[] b = {'{', '"', 't', 'e', 'x', 't', '"', ':', '"', (byte) 0xC3, '"', '}'};
        assertThatThrownBy(() -> JsonField.string(b, b.length, "text")).isInstanceOf(JsonField.Bad.class)
                .hasMessageContaining("not valid UTF-8");
        byte[] surrogate = {'{', '"', 'a', '"', ':', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'};
        assertThatThrownBy(() -> JsonField.string(surrogate, surrogate.length, "text")).isInstanceOf(JsonField.Bad.class)
                .hasMessageContaining("not valid UTF-8");
    }

    @Test
    void deepNestingIsRefusedNotFollowed() throws Exception {
        String deep = "{\"a\": " + "[".repeat(100_000) + "]".repeat(100_000) + "}";
        bad(deep, "nested deeper than 512");
        String ok = "{\"a\": " + "[".repeat(500) + "]".repeat(500) + ", \"text\": \"t\"}";
        assertThat(text(ok)).isEqualTo("t");
    }
}
