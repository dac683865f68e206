package dev.stoker.examples.tokens;

import dev.stoker.formats.tokens.TokenFile;
import dev.stoker.formats.tokens.TokenType;
import dev.stoker.formats.tokens.TokenWindow;
import dev.stoker.formats.tokens.TokenWindowDataset;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import dev.stoker.tensor.DType;
import dev.stoker.tensor.Shape;
import dev.stoker.tensor.Tensor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Language-model training windows from a flat token file, the format nanoGPT, GPT-NeoX and
 * Megatron-LM write ({@code train.bin}: little-endian uint16 tokens, no header). Each sample is a
 * window of {@code SEQ_LEN} tokens as input and the same window shifted by one as target, both
 * int64, written by the workers straight into the batch. The file is memory-mapped: workers read
 * it without copying it into the heap.
 *
 * <p>The program writes a small token file of its own first, then checks what it reads: the
 * shapes, that each target is its input shifted by one, that each window starts where the file
 * says, that an epoch holds every window once, and that two epochs are shuffled differently.
 */
public final class TokenWindows {
    private static final int TOKENS = 100_000;
    private static final int VOCAB = 50_257;   // GPT-2's, which fits in uint16
    private static final int SEQ_LEN = 128;
    private static final int WINDOWS = 1_024;
    private static final int BATCH = 32;

    public static void main(String[] args) throws IOException {
        // exec:exec runs in the project's folder, so this lands in target/ beside the build.
        Path file = Path.of("target", "tokens.bin");
        writeTokens(file);

        try (TokenFile tokens = TokenFile.open(file, TokenType.U16)) {
            // WINDOWS windows at seeded random offsets, as nanoGPT's get_batch draws them
            // (TokenWindowDataset.nonOverlapping tiles the file instead).
            TokenWindowDataset windows = TokenWindowDataset.random(tokens, SEQ_LEN, WINDOWS, 7);
            try (DataLoader<TokenWindow> loader = DataLoader.builder(windows)
                    .batchSize(BATCH)
                    .shuffle(true)
                    .seed(42)
                    .numWorkers(2)
                    .build()) {
                long[][] firstIndices = new long[2][];
                for (int epoch = 0; epoch < 2; epoch++) {
                    boolean[] seen = new boolean[WINDOWS];
                    int batches = 0;
                    for (Batch batch : loader) {
                        try (batch) {
                            Tensor input = batch.tensor("input");     // (32, 128) i64
                            Tensor target = batch.tensor("target");   // (32, 128) i64: input shifted by one
                            if (batches == 0) {
                                System.out.println("token-windows: epoch " + epoch + " begins with windows "
                                        + Arrays.toString(Arrays.copyOf(batch.indices(), 6)).replace("]", ", ...]")
                                        + "\n  input  " + input + "\n  target " + target);
                                firstIndices[epoch] = batch.indices();
                            }
                            checkBatch(tokens, windows, batch.indices(), input, target, seen);
                            batches++;
                        }
                    }
                    check(batches == WINDOWS / BATCH, "epoch " + epoch + " had " + batches + " batches");
                    for (int i = 0; i < WINDOWS; i++) {
                        check(seen[i], "epoch " + epoch + " never delivered window " + i);
                    }
                }
                // A new epoch is a new shuffle: the order is a function of the seed and the epoch.
                check(!Arrays.equals(firstIndices[0], firstIndices[1]), "epochs 0 and 1 began with the same windows");
                System.out.println("token-windows: 2 epochs of " + WINDOWS / BATCH + " batches, every window once per"
                        + " epoch, each target its input shifted by one");
            }
        }
    }

    /** The file nanoGPT's prepare.py would write: tokens as little-endian uint16, nothing else. */
    private static void writeTokens(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        ByteBuffer buffer = ByteBuffer.allocate(TOKENS * 2).order(ByteOrder.LITTLE_ENDIAN);
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < TOKENS; i++) {
            buffer.putShort((short) random.nextInt(VOCAB));   // the low 16 bits: read back as unsigned
        }
        buffer.flip();
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
        }
    }

    private static void checkBatch(TokenFile tokens, TokenWindowDataset windows, long[] indices, Tensor input,
                                   Tensor target, boolean[] seen) {
        check(input.shape().equals(Shape.of(BATCH, SEQ_LEN)) && input.dtype() == DType.I64, "input is " + input);
        check(target.shape().equals(Shape.of(BATCH, SEQ_LEN)) && target.dtype() == DType.I64, "target is " + target);
        for (int row = 0; row < BATCH; row++) {
            int window = (int) indices[row];
            check(!seen[window], "window " + window + " came twice in one epoch");
            seen[window] = true;
            long start = windows.offset(window);
            for (int t = 0; t < SEQ_LEN; t++) {
                long in = input.getLong((long) row * SEQ_LEN + t);
                long out = target.getLong((long) row * SEQ_LEN + t);
                check(in == tokens.get(start + t) && out == tokens.get(start + t + 1),
                        "window " + window + " at token " + t + " is (" + in + ", " + out + "), the file says ("
                                + tokens.get(start + t) + ", " + tokens.get(start + t + 1) + ")");
            }
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("token-windows: " + what);
        }
    }
}
