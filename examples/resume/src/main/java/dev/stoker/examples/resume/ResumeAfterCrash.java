package dev.stoker.examples.resume;

import dev.stoker.data.SyntheticDataset;
import dev.stoker.data.SyntheticSample;
import dev.stoker.loader.Batch;
import dev.stoker.loader.DataLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * A training job that crashes and resumes with exactly the batches it would have seen.
 *
 * <p>Run it twice. The first run trains from the start, saves a {@link Checkpoint} (the model and
 * {@code loader.state()}, as JSON) every {@value #CHECKPOINT_EVERY} steps, and halts the JVM two
 * steps after the checkpoint at step 15, in the middle of epoch 1: no shutdown hook, no flush,
 * as a crash or a preempted machine would. The second run finds the checkpoint, builds the same
 * loader in a new process, {@code restore}s its state and trains to the end.
 *
 * <p>Each run writes the checksum of every batch it trained on to {@code batches.txt}. At the
 * end, the second run compares them with a run that never stopped (a third loader, in the same
 * process, with no workers: the order depends on the seed and the epoch alone): the first run's
 * batches, the second run's (steps 16 and 17 again, then on to the end) and the model must all
 * equal the uninterrupted run's, or the program fails (exit code 1). Then it deletes its files,
 * so that the next run starts over.
 */
public final class ResumeAfterCrash {
    private static final int SAMPLES = 96;
    private static final int BATCH = 8;              // 12 batches per epoch
    private static final int EPOCHS = 3;             // 36 steps
    private static final int CHECKPOINT_EVERY = 5;
    private static final int CRASH_AFTER_STEP = 17;  // epoch 1, batch 4: two steps past the checkpoint at step 15
    private static final int CRASH_EXIT_CODE = 3;    // the pom's successCodes take it as the planned crash

    public static void main(String[] args) throws IOException {
        // exec:exec runs in the project's folder, so this lands in target/ beside the build.
        Path dir = Path.of("target", "resume-run");
        Path checkpointFile = dir.resolve("checkpoint.json");
        Path batchLog = dir.resolve("batches.txt");
        SyntheticDataset dataset = SyntheticDataset.builder().size(SAMPLES).shape(4, 16, 16).seed(0).build();

        if (!Files.exists(checkpointFile)) {
            System.out.println("resume: run 1, no checkpoint in " + dir + ": training from the start");
            deleteTree(dir);
            Files.createDirectories(dir);
            train(dataset, null, checkpointFile, batchLog);
            throw new IllegalStateException("resume: run 1 should have crashed at step " + CRASH_AFTER_STEP);
        }

        Checkpoint checkpoint = Checkpoint.read(checkpointFile);
        System.out.println("resume: run 2, resuming from " + checkpointFile + ": " + checkpoint.json());
        long model = train(dataset, checkpoint, checkpointFile, batchLog);
        compareWithUninterruptedRun(dataset, checkpoint, model, batchLog);
        deleteTree(dir);
    }

    /** The loader of every run: the same dataset and settings, so a state of one restores on another. */
    private static DataLoader<SyntheticSample> loader(SyntheticDataset dataset, int workers) {
        return DataLoader.builder(dataset).batchSize(BATCH).shuffle(true).seed(42).numWorkers(workers).build();
    }

    /** Trains from {@code from} (null: from the start) to the end, or until the crash on the first run. */
    private static long train(SyntheticDataset dataset, Checkpoint from, Path checkpointFile, Path batchLog)
            throws IOException {
        int run = from == null ? 1 : 2;
        try (DataLoader<SyntheticSample> loader = loader(dataset, 2)) {
            long step = 0;
            long model = 1;
            if (from != null) {
                loader.restore(from.loader());   // the next pass is the rest of the checkpoint's epoch
                step = from.step();
                model = from.model();
            }
            // loader.epoch(): the epoch the next pass loads, 0 on a new loader, the checkpoint's after restore
            for (long epoch = loader.epoch(); epoch < EPOCHS; epoch++) {
                for (Batch batch : loader) {
                    long sum;
                    try (batch) {
                        sum = checksum(batch);
                        model = trainStep(model, sum);
                        step++;
                        // One line per batch, appended and closed at once, so that the crash loses none.
                        Files.writeString(batchLog, run + " " + step + " " + batch.epoch() + " " + batch.index() + " "
                                + Long.toHexString(sum) + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                    }
                    if (step % CHECKPOINT_EVERY == 0) {
                        // The model and the loader's state at the same step, after the batch's step.
                        new Checkpoint(step, model, loader.state()).write(checkpointFile);
                        System.out.println("resume: run " + run + ", checkpoint at step " + step);
                    }
                    if (from == null && step == CRASH_AFTER_STEP) {
                        System.out.println("resume: run 1 crashes after step " + step + " (Runtime.halt("
                                + CRASH_EXIT_CODE + ")); run it again to resume");
                        System.out.flush();
                        Runtime.getRuntime().halt(CRASH_EXIT_CODE);
                    }
                }
            }
            return model;
        }
    }

    /** Stands in for an optimizer step: the result depends on every batch and on their order. */
    private static long trainStep(long model, long batchChecksum) {
        return model * 31 + batchChecksum;
    }

    /** CRC-32 of the batch's images and labels, straight from its off-heap memory. */
    private static long checksum(Batch batch) {
        CRC32 crc = new CRC32();
        crc.update(batch.tensor("image").segment().asByteBuffer());
        crc.update(batch.tensor("label").segment().asByteBuffer());
        return crc.getValue();
    }

    /** The same training without a crash, in this process: its batches and model must be the two runs'. */
    private static void compareWithUninterruptedRun(SyntheticDataset dataset, Checkpoint checkpoint, long model,
                                                    Path batchLog) throws IOException {
        List<String> expected = new ArrayList<>();   // "step epoch batch checksum", for steps 1, 2, ...
        long expectedModel = 1;
        try (DataLoader<SyntheticSample> loader = loader(dataset, 0)) {   // no workers: same order
            for (int epoch = 0; epoch < EPOCHS; epoch++) {
                for (Batch batch : loader) {
                    try (batch) {
                        long sum = checksum(batch);
                        expectedModel = trainStep(expectedModel, sum);
                        expected.add((expected.size() + 1) + " " + batch.epoch() + " " + batch.index() + " "
                                + Long.toHexString(sum));
                    }
                }
            }
        }

        List<String> lines = Files.readAllLines(batchLog);
        long run1 = lines.stream().filter(l -> l.startsWith("1 ")).count();
        long run2 = lines.stream().filter(l -> l.startsWith("2 ")).count();
        check(run1 == CRASH_AFTER_STEP, "run 1 trained " + run1 + " steps before its crash, not " + CRASH_AFTER_STEP);
        check(run2 == expected.size() - checkpoint.step(), "run 2 trained " + run2 + " steps, not "
                + (expected.size() - checkpoint.step()));
        for (String line : lines) {
            String batch = line.substring(2);
            int step = Integer.parseInt(batch.substring(0, batch.indexOf(' ')));
            check(batch.equals(expected.get(step - 1)), "run " + line.charAt(0) + " trained on (step epoch batch"
                    + " checksum) " + batch + ", the uninterrupted run on " + expected.get(step - 1));
        }
        check(model == expectedModel, "the resumed model is " + model + ", the uninterrupted one " + expectedModel);
        System.out.println("resume: ok: run 1 trained steps 1-" + run1 + ", run 2 steps " + (checkpoint.step() + 1)
                + "-" + expected.size() + " (epoch " + checkpoint.loader().epoch() + ", batch "
                + checkpoint.loader().nextBatch() + " on): every batch and the model equal those of an"
                + " uninterrupted run");
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("resume: " + what);
        }
    }
}
