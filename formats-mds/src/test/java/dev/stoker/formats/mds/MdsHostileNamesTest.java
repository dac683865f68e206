package dev.stoker.formats.mds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A remote MDS dataset whose index names a shard with a shell command (issue 16): no name from the
 * index runs anything, whatever the template's quoting, and each is refused naming the index, the
 * shard and the name. Plain names still read through quoted templates.
 */
class MdsHostileNamesTest {
    private static final String M = HostileRemote.MARKER;
    /** Each runs {@code touch PWNED} when pasted into a shell command, bare or inside either quotes. */
    private static final String[] COMMANDS = {
        "shard.00000.mds$(touch " + M + ")",
        "shard.00000.mds`touch " + M + "`",
        "shard.00000.mds;touch " + M,
        "shard.00000.mds|touch " + M,
        "shard.00000.mds&&touch " + M,
        "shard.00000.mds\ntouch " + M,
        "shard.00000.mds';touch " + M + ";'",
        "shard.00000.mds\";touch " + M + ";\"",
        "shard.00000.mds'$(touch " + M + ")'",
    };
    /** How a user may write the template; the server folder replaces SERVER. */
    private static final String[] TEMPLATES = {
        "pipe:cd SERVER && cat {}",
        "pipe:cd SERVER && cat './{}'",
        "pipe:cd SERVER && cat \"./{}\"",
        "pipe:sh -c \"cd SERVER && cat {}\"", // a second shell: the plain-name rule guards it
    };

    @TempDir
    Path dir;

    @Test
    void aShardNamedLikeACommandRunsNothingAndIsRefusedByName() {
        int n = 0;
        for (String hostile : COMMANDS) {
            for (String template : TEMPLATES) {
                n++;
                Path server = HostileRemote.server("scalars", dir, "server-" + n, 0, "raw_data", hostile);
                Path local = dir.resolve("local-" + n);
                MdsOptions remote = MdsOptions.defaults().remote(template.replace("SERVER", server.toString()));
                Throwable thrown = catchThrowable(() -> {
                    try (MdsDataset ds = MdsDataset.open(local, remote)) {
                        HostileRemote.readAll(ds);
                    }
                });
                assertThat(HostileRemote.markerMade(dir)).as("%s through %s ran its command", hostile, template)
                        .isFalse();
                assertThat(thrown).as("%s through %s", hostile, template).isInstanceOf(MdsFormatException.class)
                        .hasMessageContaining("index.json")
                        .hasMessageContaining("shard 0")
                        .hasMessageContaining("'" + shown(hostile) + "'")
                        .hasMessageContaining("not a plain file name");
            }
        }
    }

    @Test
    void plainNamesReadThroughBareAndQuotedTemplates() {
        int n = 0;
        for (String set : new String[] {"scalars", "scalars_zstd", "split"}) {
            for (String template : TEMPLATES) {
                n++;
                Path server = MdsFixtures.copy(set, dir.resolve("server-" + n));
                String split = set.equals("split") ? "val" : null;
                MdsOptions remote = MdsOptions.defaults().split(split)
                        .remote(template.replace("SERVER", server.toString()));
                try (MdsDataset there = MdsDataset.open(server, MdsOptions.defaults().split(split));
                     MdsDataset here = MdsDataset.open(dir.resolve("local-" + n), remote)) {
                    assertThat(here.size()).isEqualTo(there.size()).isPositive();
                    for (long i = 0; i < there.size(); i++) {
                        for (String c : there.columns()) {
                            assertThat(here.get(i).bytes(c)).as("%s %s sample %d", set, template, i)
                                    .isEqualTo(there.get(i).bytes(c));
                        }
                    }
                }
            }
        }
    }

    /** {@code name} as an error message shows it: control characters and quotes escaped. */
    static String shown(String name) {
        return name.replace("\\", "\\\\").replace("\n", "\\n").replace("'", "\\'");
    }
}
