package dev.stoker.formats.tar;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * One kind of damaged input for {@link TarFuzzRunner}: it makes seeded case {@code seed} (the
 * damaged bytes, written under a work folder where a file is needed) and says how to read it, which
 * exceptions a refusal may be, and what their message must name.
 */
interface FuzzArea {

    /**
     * A damaged input and how to read it.
     *
     * @param what  the damage, for the log
     * @param read  reads every sample (and checks what it can of their values); returns normally
     *              when the input read cleanly
     * @param names what a refusal's message must contain (the file, URL or command)
     */
    record Case(String what, Callable<?> read, List<String> names) {
    }

    /** The exception types a refusal may have. */
    Set<Class<? extends RuntimeException>> refusals();

    /** Case {@code seed}; files it needs go under {@code work}. */
    Case make(long seed, Path work) throws Exception;
}
