package dev.stoker.vision.augment;

/** The check every {@code Random*} op makes of its probability. */
final class Probability {
    private Probability() {}

    static void check(String op, double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(op + "'s probability is in [0, 1], not " + p);
        }
    }
}
