package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The launcher's JIT directives name methods of ours by text, which a rename would turn into a
 * directive for nothing, without a word from the JVM: each named method must still exist.
 */
class LauncherJitTest {
    private static final Pattern DONTINLINE = Pattern.compile("CompileCommand=dontinline,([\\w/$]+)\\.(\\w+)");

    @Test
    void everyMethodTheLauncherKeepsFromInliningExists() throws Exception {
        String launcher = Files.readString(RepositoryRoot.holding("stoker").resolve("stoker"));
        String flags = launcher.lines().filter(l -> l.startsWith("jit=")).findFirst().orElseThrow();
        assertThat(flags).as("directives are quiet, so that nothing of theirs reaches stdout (--json)")
                .startsWith("jit=\"-XX:CompileCommand=quiet ");
        Matcher m = DONTINLINE.matcher(flags);
        int found = 0;
        while (m.find()) {
            found++;
            Class<?> owner = Class.forName(m.group(1).replace('/', '.'));
            List<String> names = Arrays.stream(owner.getDeclaredMethods()).map(Method::getName).toList();
            assertThat(names).as(m.group(0)).contains(m.group(2));
        }
        assertThat(found).isPositive();
        assertThat(launcher).contains("$heap $heap_start $jit\"");
    }
}
