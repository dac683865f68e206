package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stoker.formats.remote.DataFileNames;
import java.nio.file.Path;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded fuzz over hostile shard names in a remote dataset's index and the ways a user writes the
 * {@code pipe:} template: metacharacters, quotes of both kinds, newlines and other control
 * characters, {@code ..} and paths, Unicode look-alikes, option look-alikes. Whatever the name and
 * the template, nothing runs (no marker file appears), nothing is written outside the server, the
 * local folder and the decompression cache, and a name is read only if it is a plain file name;
 * otherwise it is refused naming the shard and the field.
 */
class MdsHostileNamesFuzzTest {
    private static final String M = HostileRemote.MARKER;
    private static final String[] PAYLOADS = {
        "$(touch " + M + ")", "`touch " + M + "`", ";touch " + M, "|touch " + M, "&&touch " + M, "||touch " + M,
        "\ntouch " + M, "\rtouch " + M, "';touch " + M + ";'", "\";touch " + M + ";\"", "'$(touch " + M + ")'",
        "\"$(touch " + M + ")\"", "${IFS}", "$STOKER_FILE", "${STOKER_FILE}", "{}", ">" + M, ">../" + M,
        "<&-", "&", "*", "?", "[a]", "~", "#", "!", "\\", "\\'", "\t", " ", "\u0000", "\u0007", "\u007f",
        "..", "../", "../..", "/", "/tmp/" + M, "./", ".", "%2e%2e%2f", "\u2024\u2024", "\uff0e\uff0e\uff0f",
        "\u202e", "\u00e9", "\u0301", "\ud83d\ude00", "-rf", "--help", "=", "+", ",", "@", ":", "^",
    };
    private static final String[] PLAIN = {"shard.00099.mds", "shard_0-0.mds", "a", "X9", "s.mds.part"};
    private static final String[] TEMPLATES = {
        "pipe:cd SERVER && cat {}", "pipe:cd SERVER && cat ./{}", "pipe:cd SERVER && cat './{}'",
        "pipe:cd SERVER && cat \"./{}\"", "pipe:cd 'SERVER' && cat -- {}", "pipe:cd SERVER; cat {} | cat",
        "pipe:cd SERVER && cat \"$PWD\"/{}", "pipe:cd SERVER && cat {}{}x 2>/dev/null || cat {}",
        // A second shell parses the name again: only the plain-name rule guards these.
        "pipe:sh -c \"cd SERVER && cat {}\"", "pipe:eval \"cd SERVER && cat {}\"",
    };

    @TempDir
    Path dir;

    @Test
    void noHostileNameRunsWritesOutsideOrIsRead() {
        Random rnd = new Random(0x5EC16);
        for (int n = 0; n < 120; n++) {
            String hostile = name(rnd);
            String template = TEMPLATES[rnd.nextInt(TEMPLATES.length)];
            boolean zstd = rnd.nextBoolean();
            int shard = rnd.nextInt(8);
            String field = zstd && rnd.nextBoolean() ? "zip_data" : "raw_data";
            String what = "case " + n + ": " + DataFileNames.quoted(hostile) + " as shard " + shard + "'s " + field
                    + " through " + template;

            Set<String> before = outside(n);
            Path server = HostileRemote.server(zstd ? "scalars_zstd" : "scalars", dir, "server-" + n, shard, field,
                    hostile);
            MdsOptions remote = MdsOptions.defaults().remote(template.replace("SERVER", server.toString()))
                    .cacheDir(rnd.nextBoolean() ? dir.resolve("cache-" + n) : null);
            Path local = dir.resolve("local-" + n);
            Throwable thrown = catchThrowable(() -> {
                try (MdsDataset ds = MdsDataset.open(local, remote)) {
                    HostileRemote.readAll(ds);
                }
            });

            assertThat(HostileRemote.markerMade(dir)).as(what + ": ran a command").isFalse();
            assertThat(outside(n)).as(what + ": wrote outside its folders").isEqualTo(before);
            if (DataFileNames.problem(hostile).isEmpty()) {
                assertThat(thrown).as(what + ": a plain name reads").isNull();
            } else {
                assertThat(thrown).as(what).isInstanceOf(MdsFormatException.class)
                        .hasMessageContaining("shard " + shard + ": " + field)
                        .hasMessageContaining("not a plain file name");
            }
        }
    }

    /** A name: a plain one now and then, else a plain one with one to three payloads at random places. */
    private static String name(Random rnd) {
        StringBuilder b = new StringBuilder(PLAIN[rnd.nextInt(PLAIN.length)]);
        if (rnd.nextInt(8) == 0) {
            return b.toString();
        }
        for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
            b.insert(rnd.nextInt(b.length() + 1), PAYLOADS[rnd.nextInt(PAYLOADS.length)]);
        }
        if (rnd.nextInt(10) == 0) {
            return PAYLOADS[rnd.nextInt(PAYLOADS.length)]; // a payload alone: "..", "/", "-rf"
        }
        return b.toString();
    }

    /** What lies in the test's folder outside case {@code n}'s own server, local and cache folders. */
    private Set<String> outside(int n) {
        Set<String> all = new TreeSet<>();
        for (String f : HostileRemote.tree(dir)) {
            if (!f.startsWith("server-" + n) && !f.startsWith("local-" + n) && !f.startsWith("cache-" + n)) {
                all.add(f);
            }
        }
        return all;
    }
}
