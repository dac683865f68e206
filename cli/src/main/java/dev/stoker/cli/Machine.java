package dev.stoker.cli;

/**
 * The machine a benchmark ran on, in the few words that matter when reading its figures.
 *
 * @param cores processors available to the JVM
 * @param jvm   runtime version and vendor
 * @param os    operating system and architecture
 */
record Machine(int cores, String jvm, String os) {

    static Machine current() {
        return new Machine(Runtime.getRuntime().availableProcessors(),
                Runtime.version() + " (" + System.getProperty("java.vm.vendor", "unknown vendor") + ")",
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"));
    }

    /** {@code machine: 2 cores, JVM 25+36-LTS (Eclipse Adoptium), Linux 6.1.0 amd64}. */
    String describe() {
        return "machine: " + cores + (cores == 1 ? " core" : " cores") + ", JVM " + jvm + ", " + os;
    }
}
