package dev.stoker.loader;

/**
 * A loader's profile summed up in words: whether the training loop waits for data, and why.
 *
 * <pre>{@code
 * Verdict v = loader.profile().verdict();
 * if (v.kind() == Verdict.Kind.DATA_BOUND) log.warn(v.toString());
 * }</pre>
 *
 * @param kind   which way it leans
 * @param reason a sentence or two for a person: the figures behind it and what would help
 */
public record Verdict(Kind kind, String reason) {
    /** Which side sets the pace. */
    public enum Kind {
        /** The loop waits for batches: the loader sets the pace. */
        DATA_BOUND("data-bound"),
        /** Batches are ready when the loop asks: the step sets the pace. */
        COMPUTE_BOUND("compute-bound"),
        /** Too little seen to say. */
        UNKNOWN("not known yet");

        private final String words;

        Kind(String words) {
            this.words = words;
        }

        /** {@code "data-bound"}. */
        public String words() {
            return words;
        }
    }

    /** {@code "data-bound: ..."}. */
    @Override
    public String toString() {
        return kind.words() + ": " + reason;
    }
}
