package dev.stoker.formats.tar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ShardNamePatternTest {
    private static final String[] CONVERSIONS = {"%d", "%06d", "%5d", "%x", "%04X", "%o", "%s"};
    private static final String LITERALS = "ab-_.%tar0123456789 ";

    /** Every name a pattern writes is its own, and a name it does not write is not, over random patterns. */
    @Test
    void aNameBelongsToAPatternExactlyWhenThePatternWritesIt() {
        Random rnd = new Random(16);
        for (int trial = 0; trial < 500; trial++) {
            StringBuilder p = new StringBuilder();
            int parts = 1 + rnd.nextInt(2);
            for (int i = 0; i < parts; i++) {
                // two numbers side by side cannot be told apart: the writer's patterns put a separator between
                p.append(i > 0 ? "-" : "").append(literal(rnd)).append(CONVERSIONS[rnd.nextInt(CONVERSIONS.length)]);
            }
            p.append(literal(rnd)).append(".tar");
            String pattern = p.toString();
            ShardNamePattern names = ShardNamePattern.of(pattern);
            Object[] numbers = new Object[parts];
            for (int i = 0; i < parts; i++) {
                numbers[i] = (long) rnd.nextInt(rnd.nextBoolean() ? 10 : 2_000_000);
            }
            String name = String.format(pattern, numbers);
            assertThat(names.matches(name)).as("%s, %s", pattern, name).isTrue();
            if (parts == 1) {
                // a changed name belongs exactly when some number gives it (a digit changed, say)
                String other = mutate(rnd, name);
                assertThat(names.matches(other)).as("%s: %s", pattern, other).isEqualTo(isWritten(pattern, other));
            }
        }
    }

    /** A brute-force oracle for one number: small numbers, then every run of digits in the name. */
    private static boolean isWritten(String pattern, String name) {
        for (long n = 0; n < 3000; n++) {
            if (String.format(pattern, n).equals(name)) {
                return true;
            }
        }
        String digits = name.replaceAll("[^0-9a-fA-F]", "");
        for (int radix : new int[] {8, 10, 16}) {
            for (int from = 0; from < digits.length(); from++) {
                for (int to = from + 1; to <= Math.min(digits.length(), from + 12); to++) {
                    try {
                        if (String.format(pattern, Long.parseLong(digits.substring(from, to), radix)).equals(name)) {
                            return true;
                        }
                    } catch (NumberFormatException e) {
                        // not a number in this radix
                    }
                }
            }
        }
        return false;
    }

    private static String literal(Random rnd) {
        StringBuilder b = new StringBuilder();
        for (int i = rnd.nextInt(4); i > 0; i--) {
            char c = LITERALS.charAt(rnd.nextInt(LITERALS.length()));
            b.append(c == '%' ? "%%" : String.valueOf(c));
        }
        return b.toString();
    }

    private static String mutate(Random rnd, String name) {
        int at = rnd.nextInt(name.length());
        return switch (rnd.nextInt(3)) {
            case 0 -> name.substring(0, at) + name.substring(at + 1);
            case 1 -> name.substring(0, at) + (char) ('0' + rnd.nextInt(10)) + name.substring(at);
            default -> name.substring(0, at) + "x" + name.substring(at + 1);
        };
    }

    @Test
    void theManifestIsNamedAfterTheStartOfThePattern() {
        assertThat(ShardNamePattern.of("shard-%06d.tar").manifestName()).isEqualTo("shard.stoker-manifest");
        assertThat(ShardNamePattern.of("train_%05d-%06d.tar").manifestName()).isEqualTo("train.stoker-manifest");
        assertThat(ShardNamePattern.of("%06d.tar").manifestName()).isEqualTo("shards.stoker-manifest");
        assertThat(ShardNamePattern.of("100%%-%d.tar").manifestName()).isEqualTo("100%.stoker-manifest");
        assertThat(ShardNamePattern.of("shard-%06d.tar").matches("shard-7.tar")).isFalse();
        assertThat(ShardNamePattern.of("shard-%06d.tar").matches("shard-000007.tar.idx")).isFalse();
        assertThatThrownBy(() -> ShardNamePattern.of("shard-%f.tar")).hasMessageContaining("number conversions");
        ShardNamePattern swapped = ShardNamePattern.of("s-%2$03d-%1$05d.tar");
        assertThat(swapped.matches(String.format("s-%2$03d-%1$05d.tar", 12, 7))).isTrue();
        assertThat(swapped.matches("s-7-00012.tar")).isFalse();
    }
}
