package dev.stoker.vision.transform;

/**
 * Working arrays for {@link Resampler}, kept from image to image so that a steady stream of
 * images allocates nothing: the intermediate rows of the two-pass resize, the filter
 * coefficients, one output row. They grow to the largest image seen.
 *
 * <p>Not thread-safe: one per thread at a time (the pipeline keeps a pool of them).
 */
public final class Scratch {
    private int[] intermediate = new int[0];
    private int[] columns = new int[0];
    private int[] blockAcc = new int[0];
    private byte[] sourceRow = new byte[0];
    private byte[] outRow = new byte[0];
    private int[] acc = new int[0];
    private int[] widenedRow = new int[0];
    private int[] gatherIndex = new int[0];
    private int[] gatherWeights = new int[0];
    private int[] groupTaps = new int[0];
    private int[] relative = new int[0];
    private int[] boundsX = new int[0];
    private int[] boundsY = new int[0];
    private int[] weightsX = new int[0];
    private int[] weightsY = new int[0];
    private double[] weights = new double[0];
    private float[] floats = new float[0];
    private short[] shorts = new short[0];
    private byte[] bytes = new byte[0];
    private final Tile tile = new Tile();
    private Normalize tableFor;
    private float[][] table;

    public Scratch() {}

    int[] intermediate(int n) {
        return intermediate.length >= n ? intermediate : (intermediate = new int[n]);
    }

    int[] columns(int n) {
        return columns.length >= n ? columns : (columns = new int[n]);
    }

    int[] blockAcc(int n) {
        return blockAcc.length >= n ? blockAcc : (blockAcc = new int[n]);
    }

    byte[] sourceRow(int n) {
        return sourceRow.length >= n ? sourceRow : (sourceRow = new byte[n]);
    }

    byte[] outRow(int n) {
        return outRow.length >= n ? outRow : (outRow = new byte[n]);
    }

    int[] acc(int n) {
        return acc.length >= n ? acc : (acc = new int[n]);
    }

    int[] widenedRow(int n) {
        return widenedRow.length >= n ? widenedRow : (widenedRow = new int[n]);
    }

    int[] gatherIndex(int n) {
        return gatherIndex.length >= n ? gatherIndex : (gatherIndex = new int[n]);
    }

    int[] gatherWeights(int n) {
        return gatherWeights.length >= n ? gatherWeights : (gatherWeights = new int[n]);
    }

    int[] relative(int n) {
        return relative.length >= n ? relative : (relative = new int[n]);
    }

    int[] groupTaps(int n) {
        return groupTaps.length >= n ? groupTaps : (groupTaps = new int[n]);
    }

    int[] boundsX(int n) {
        return boundsX.length >= n ? boundsX : (boundsX = new int[n]);
    }

    int[] boundsY(int n) {
        return boundsY.length >= n ? boundsY : (boundsY = new int[n]);
    }

    int[] weightsX(int n) {
        return weightsX.length >= n ? weightsX : (weightsX = new int[n]);
    }

    int[] weightsY(int n) {
        return weightsY.length >= n ? weightsY : (weightsY = new int[n]);
    }

    double[] weights(int n) {
        return weights.length >= n ? weights : (weights = new double[n]);
    }

    float[] floats(int n) {
        return floats.length >= n ? floats : (floats = new float[n]);
    }

    short[] shorts(int n) {
        return shorts.length >= n ? shorts : (shorts = new short[n]);
    }

    byte[] bytes(int n) {
        return bytes.length >= n ? bytes : (bytes = new byte[n]);
    }

    /** The tile pixel ops work on, reused from image to image. */
    public Tile tile() {
        return tile;
    }

    float[][] table(Normalize normalize) {
        if (tableFor != normalize) {
            table = normalize.table();
            tableFor = normalize;
        }
        return table;
    }
}
