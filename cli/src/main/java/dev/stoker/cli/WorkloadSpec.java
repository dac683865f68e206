package dev.stoker.cli;

/**
 * The constants of a {@link Workload}, stated once: {@link Workload}'s getters read them.
 *
 * <pre>{@code
 * new WorkloadSpec("W4", "varlen-collate", Data.NONE, 1, 64, samples, 0)
 * }</pre>
 *
 * @param name                 the short name, {@code W1}
 * @param title                the long name, {@code synthetic-delay}
 * @param data                 what the workload asks of the benchmark data folder
 * @param epochs               epochs per repetition
 * @param batchSize            samples per batch
 * @param samplesPerEpoch      samples per epoch, at least one
 * @param outputBytesPerSample bytes of output per sample for the MB/s column, or 0 where the byte
 *                             volume is not defined
 */
public record WorkloadSpec(String name, String title, Data data, int epochs, int batchSize, int samplesPerEpoch,
                           long outputBytesPerSample) {

    /** What a workload asks of the benchmark data folder. */
    public enum Data {
        /** It makes its data in memory and reads no folder (W1, W4, W6). */
        NONE,
        /** It reads the folder's files and fails without them (W8). */
        REQUIRED,
        /** It reads the folder's files, or makes an equivalent in the cache folder when they are missing (W2). */
        MADE_IF_MISSING
    }

    public WorkloadSpec {
        if (samplesPerEpoch < 1) {
            throw new IllegalArgumentException(name + " needs at least one sample, not " + samplesPerEpoch);
        }
        if (epochs < 1 || batchSize < 1) {
            throw new IllegalArgumentException(name + ": epochs and batch size must be 1 or more, not " + epochs
                    + " and " + batchSize);
        }
    }
}
