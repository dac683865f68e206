package dev.stoker.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Strings built from random pieces (plain ASCII, escapes, valid multi-byte UTF-8, a real U+FFFD,
 * and now and then a malformed sequence) read back as the pieces say, or are refused as invalid
 * UTF-8 exactly when a malformed piece is in them: whatever path the reader takes.
 */
class JsonStringPropertyTest {
    /** Byte sequences no valid UTF-8 holds: lone continuation, overlong, surrogate, beyond U+10FFFF, cut short. */
    private static final byte[][] MALFORMED = {
            {(byte) 0x80}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xE0, (byte) 0x80, (byte) 0xAF},
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xE2, (byte) 0x82}, {(byte) 0xFF}};

    @Test
    void randomStringsReadAsTheirPiecesOrAreRefusedForTheirMalformedBytes() throws Exception {
        Random r = new Random(20261126);
        for (int round = 0; round < 20_000; round++) {
            ByteArrayOutputStream raw = new ByteArrayOutputStream();
            StringBuilder expected = new StringBuilder();
            boolean malformed = false;
            int pieces = r.nextInt(12);
            for (int p = 0; p < pieces; p++) {
                switch (r.nextInt(10)) {
                    case 0, 1, 2 -> { // plain ASCII
                        int n = r.nextInt(40);
                        for (int i = 0; i < n; i++) {
                            char c = (char) (0x20 + r.nextInt(0x5F));
                            if (c == '"' || c == '\\') c = 'x';
                            raw.write(c);
                            expected.append(c);
                        }
                    }
                    case 3 -> { // an escape
                        String[][] escapes = {{"\\n", "\n"}, {"\\\"", "\""}, {"\\\\", "\\"}, {"\\/", "/"}, {"\\t", "\t"},
                                {"\\u00e9", "é"}, {"\\ud83d\\ude00", "😀"}, {"\\uFFFD", "\uFFFD"}};
                        String[] e = escapes[r.nextInt(escapes.length)];
                        raw.writeBytes(e[0].getBytes(StandardCharsets.US_ASCII));
                        expected.append(e[1]);
                    }
                    case 4, 5, 6 -> { // valid multi-byte characters, written raw
                        int n = 1 + r.nextInt(6);
                        for (int i = 0; i < n; i++) {
                            int cp;
                            do {
                                cp = switch (r.nextInt(3)) {
                                    case 0 -> 0x80 + r.nextInt(0x780);
                                    case 1 -> 0x800 + r.nextInt(0xF800);
                                    default -> 0x10000 + r.nextInt(0x100000);
                                };
                            } while (cp >= 0xD800 && cp <= 0xDFFF);
                            String s = new String(Character.toChars(cp));
                            raw.writeBytes(s.getBytes(StandardCharsets.UTF_8));
                            expected.append(s);
                        }
                    }
                    case 7 -> { // a real replacement character, raw
                        raw.writeBytes("\uFFFD".getBytes(StandardCharsets.UTF_8));
                        expected.append('\uFFFD');
                    }
                    case 8 -> {
                        if (r.nextInt(4) == 0) {
                            raw.writeBytes(MALFORMED[r.nextInt(MALFORMED.length)]);
                            raw.write('x'); // so that two malformed pieces cannot make one valid sequence (E2 82 + 80)
                            malformed = true;
                        }
                    }
                    default -> {
                        raw.write('a');
                        expected.append('a');
                    }
                }
            }
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            line.writeBytes("{\"other\": \"".getBytes(StandardCharsets.US_ASCII));
            line.writeBytes(raw.toByteArray()); // skipped, not built: checked all the same
            line.writeBytes("\", \"text\": \"".getBytes(StandardCharsets.US_ASCII));
            line.writeBytes(raw.toByteArray());
            line.writeBytes("\"}".getBytes(StandardCharsets.US_ASCII));
            byte[] b = line.toByteArray();
            if (malformed) {
                String hex = java.util.HexFormat.of().formatHex(raw.toByteArray());
                assertThat(catchThrowable(() -> JsonField.string(b, b.length, "text"))).as("round %d: %s", round, hex)
                        .isInstanceOf(JsonField.Bad.class).hasMessageContaining("not valid UTF-8");
            } else {
                assertThat(JsonField.string(b, b.length, "text")).as("round %d", round).isEqualTo(expected.toString());
            }
        }
    }
}
