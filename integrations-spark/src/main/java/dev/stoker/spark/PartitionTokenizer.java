package dev.stoker.spark;

import dev.stoker.formats.megatron.MegatronDType;
import dev.stoker.formats.megatron.MegatronDataset;
import dev.stoker.formats.megatron.MegatronWriter;
import dev.stoker.text.Tokenizer;
import dev.stoker.text.tokenizers.Tokenizers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.sql.Row;

/**
 * The executor's half of {@link TokenPacker}: tokenizes one partition's texts in order, 1,024 per
 * call, into a Megatron shard of its own written in a staging folder of its task attempt, then
 * moves it to {@code NAME-PPPPP.bin} and {@code .idx} (the {@code .bin} first, so that an index
 * never names a missing file).
 */
final class PartitionTokenizer implements Function2<Integer, Iterator<Row>, Iterator<TokenPart>> {
    private static final long serialVersionUID = 1L;
    private static final int CHUNK = 1024;

    private final TokenPlan plan;

    PartitionTokenizer(TokenPlan plan) {
        this.plan = plan;
    }

    @Override
    public Iterator<TokenPart> call(Integer partition, Iterator<Row> rows) throws IOException {
        Path out = Path.of(plan.outputDir());
        TaskContext task = TaskContext.get();
        long attempt = task == null ? ProcessHandle.current().pid() : task.taskAttemptId();
        Path staging = out.resolve(TokenPlan.STAGING).resolve("partition-" + partition + "-attempt-" + attempt);
        Files.createDirectories(staging);
        Path stagedPrefix = staging.resolve("part");
        long documents = 0;
        long tokens = 0;
        long nulls = 0;
        try (Tokenizer tokenizer = Tokenizers.open(Path.of(plan.tokenizer()));
             MegatronWriter writer = MegatronWriter.create(stagedPrefix, MegatronDType.valueOf(plan.dtype()))) {
            List<String> chunk = new ArrayList<>(CHUNK);
            while (rows.hasNext()) {
                chunk.clear();
                while (chunk.size() < CHUNK && rows.hasNext()) {
                    Row row = rows.next();
                    if (row.isNullAt(plan.textIndex())) {
                        nulls++;
                    } else {
                        chunk.add(row.getString(plan.textIndex()));
                    }
                }
                for (int[] ids : tokenizer.encodeBatch(chunk)) {
                    int[] doc = plan.eos() >= 0 ? Arrays.copyOf(ids, ids.length + 1) : ids;
                    if (plan.eos() >= 0) {
                        doc[ids.length] = plan.eos();
                    }
                    writer.addSequence(doc);
                    writer.endDocument();
                    tokens += doc.length;
                }
                documents += chunk.size();
            }
            writer.commit();
            Path target = out.resolve(plan.partName(partition));
            Files.move(MegatronDataset.binPath(stagedPrefix), MegatronDataset.binPath(target),
                    StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            Files.move(MegatronDataset.idxPath(stagedPrefix), MegatronDataset.idxPath(target),
                    StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return List.of(new TokenPart(partition, target.toString(), documents, tokens, nulls)).iterator();
        } catch (IOException e) {
            throw new UncheckedIOException("partition " + partition + ": " + e.getMessage(), e);
        } finally {
            try (var s = Files.list(staging)) {
                for (Path p : s.toList()) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(staging);
        }
    }
}
