package dev.stoker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.sampler.DistributedSampler;
import java.util.ArrayList;
import java.util.List;
import java.util.PrimitiveIterator;
import org.junit.jupiter.api.Test;

class OrderCommandTest {

    private static List<String> expected(long size, long seed, long epoch, int rank, int world, int batch) {
        PrimitiveIterator.OfLong it = DistributedSampler.builder(size).numReplicas(world).rank(rank).shuffle(true)
                .seed(seed).build().iterator(epoch);
        List<String> lines = new ArrayList<>();
        while (it.hasNext()) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < batch && it.hasNext(); i++) {
                line.append(i == 0 ? "" : " ").append(it.nextLong());
            }
            lines.add(line.toString());
        }
        return lines;
    }

    @Test
    void printsTheBatchesTheSamplerGivesThatRank() {
        BenchCommandTest.Run r = BenchCommandTest.run("order", "--size", "103", "--seed", "42", "--epoch", "7",
                "--rank", "3", "--world-size", "4", "--batch-size", "8");

        assertThat(r.exit()).isZero();
        assertThat(r.out().lines().toList()).isEqualTo(expected(103, 42, 7, 3, 4, 8));
    }

    @Test
    void theDigestChangesWithTheEpochAndIsStableOtherwise() {
        String a = BenchCommandTest.run("order", "--size", "1000", "--epoch", "1", "--digest").out();
        String b = BenchCommandTest.run("order", "--size", "1000", "--epoch", "1", "--digest").out();
        String c = BenchCommandTest.run("order", "--size", "1000", "--epoch", "2", "--digest").out();

        assertThat(a).startsWith("1000 indices, sha256 ").isEqualTo(b).isNotEqualTo(c);
    }

    @Test
    void aRankOutsideTheWorldIsAnError() {
        BenchCommandTest.Run r = BenchCommandTest.run("order", "--size", "10", "--rank", "4", "--world-size", "4");

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("stoker order:");
    }

    /** A user typed options: the error names them, never the library's parameter names. */
    @Test
    void aBadValueIsNamedByItsOption() {
        String[][] cases = {
            {"--size", "-1"}, {"--world-size", "0"}, {"--rank", "-1"}, {"--epoch", "-2"}, {"--batch-size", "-3"}};
        for (String[] bad : cases) {
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("order", "--size", "10"));
            args.addAll(java.util.List.of(bad));
            BenchCommandTest.Run r = BenchCommandTest.run(args.toArray(String[]::new));

            assertThat(r.exit()).as(String.join(" ", bad)).isEqualTo(2);
            assertThat(r.err()).as(String.join(" ", bad)).contains(bad[0]).doesNotContain("numReplicas", "datasetSize");
        }
    }

    @Test
    void theHelpsExamplesFitTheLineSoNoneIsCutMidSentence() {
        BenchCommandTest.Run r = BenchCommandTest.run("order", "--help");

        String examples = r.out().substring(r.out().indexOf("Examples:"));
        assertThat(examples.lines().skip(1)).allMatch(line -> line.isEmpty() || line.startsWith("  "));
    }
}
