package dev.stoker.packing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.sampler.LongTailLengths;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PackedDatasetTest {

    @Test
    void rowsHoldEachExampleOnceWithConsistentLabelsPositionsAndBounds() {
        SplittableRandom random = new SplittableRandom(41);
        for (int trial = 0; trial < 30; trial++) {
            int n = random.nextInt(0, 400);
            int maxLength = random.nextInt(8, 300);
            int[] lengths = LongTailLengths.of(n, maxLength / 4, 0, maxLength * 2, trial);
            int[] prompts = new int[n];
            for (int i = 0; i < n; i++) {
                prompts[i] = random.nextInt(0, lengths[i] + 2);
            }
            Overlong overlong = random.nextBoolean() ? Overlong.TRUNCATE : Overlong.SPLIT;
            boolean pack = random.nextInt(4) != 0;
            PackedDataset rows = PackedDataset.builder(new TokenExamples(lengths), lengths, maxLength)
                    .promptLengths(prompts).windowSize(random.nextInt(1, 100)).seed(trial).overlong(overlong)
                    .pack(pack).build();
            int[] covered = new int[n]; // tokens of each example found in the rows
            long real = 0;
            for (long r = 0; r < rows.size(); r++) {
                PackedRow row = rows.get(r);
                check(row, maxLength, prompts);
                if (!pack) {
                    assertThat(row.segments()).hasSize(1);
                }
                for (Segment s : row.segments()) {
                    assertThat(s.offset()).as("segments of an example in order, without gaps")
                            .isEqualTo(covered[(int) s.example()]);
                    covered[(int) s.example()] += s.length();
                }
                real += row.realTokens();
            }
            for (int i = 0; i < n; i++) {
                int expected = overlong == Overlong.SPLIT ? lengths[i] : Math.min(lengths[i], maxLength);
                assertThat(covered[i]).as("example %d", i).isEqualTo(expected);
            }
            assertThat(rows.realTokens()).isEqualTo(real);
        }
    }

    /** Checks one row against the examples its segments name. */
    static void check(PackedRow row, int maxLength, int[] prompts) {
        assertThat(row.inputIds()).hasSize(maxLength);
        assertThat(row.realTokens()).isLessThanOrEqualTo(maxLength).isPositive();
        int[] cu = row.cuSeqlens();
        assertThat(cu[0]).isZero();
        assertThat(cu[cu.length - 1]).isEqualTo(maxLength);
        int at = 0;
        int longest = 0;
        for (int k = 0; k < row.segments().size(); k++) {
            Segment s = row.segments().get(k);
            assertThat(cu[k]).isEqualTo(at);
            for (int t = 0; t < s.length(); t++) {
                int p = s.offset() + t;
                int token = TokenExamples.token(s.example(), p);
                assertThat(row.inputIds()[at + t]).isEqualTo(token);
                assertThat(row.positionIds()[at + t]).isEqualTo(t);
                assertThat(row.attentionMask()[at + t]).isOne();
                boolean ignored = t == 0 || p < prompts[(int) s.example()];
                assertThat(row.labels()[at + t]).isEqualTo(ignored ? -100 : token);
            }
            at += s.length();
            longest = Math.max(longest, s.length());
        }
        assertThat(at).isEqualTo(row.realTokens());
        assertThat(cu).hasSize(row.segments().size() + (at < maxLength ? 2 : 1));
        for (int t = at; t < maxLength; t++) {
            assertThat(row.labels()[t]).isEqualTo(-100);
            assertThat(row.attentionMask()[t]).isZero();
            assertThat(row.positionIds()[t]).isEqualTo(t - at);
            assertThat(row.inputIds()[t]).isZero();
        }
        assertThat(row.maxSeqlen()).isEqualTo(Math.max(longest, maxLength - at));
    }

    @Test
    void aRowIsAPureFunctionOfItsWindow() {
        int[] lengths = LongTailLengths.of(3000, 200, 1, 3000, 2);
        PackedDataset a = PackedDataset.builder(new TokenExamples(lengths), lengths, 1024).seed(5).build();
        PackedDataset b = PackedDataset.builder(new TokenExamples(lengths), lengths, 1024).seed(5).build();
        PackedDataset other = PackedDataset.builder(new TokenExamples(lengths), lengths, 1024).seed(5).epoch(1)
                .build();
        assertThat(b.size()).isEqualTo(a.size());
        long[] probe = new SplittableRandom(3).longs(200, 0, a.size()).toArray();
        for (long r : probe) { // in any order, from any instance: the same rows
            assertThat(b.get(r).inputIds()).isEqualTo(a.get(r).inputIds());
            assertThat(b.segments(r)).isEqualTo(a.segments(r));
        }
        assertThat(other.segments(0)).isNotEqualTo(a.segments(0));
    }

    @Test
    void packsALongTailedDistributionIntoRowsOf2048AtLeast98PercentFull() {
        int[] lengths = LongTailLengths.of(100_000, 350, 16, 16_384, 9);
        TokenExamples examples = new TokenExamples(lengths);
        double fine = 0;
        for (int window : new int[] {100, 1000, 10_000}) {
            PackedDataset rows = PackedDataset.builder(examples, lengths, 2048).windowSize(window).seed(1).build();
            System.out.printf("packing efficiency, rows of 2048, windows of %d: %.4f (%d rows)%n", window,
                    rows.efficiency(), rows.size());
            if (window == 1000) {
                fine = rows.efficiency();
            }
        }
        PackedDataset padded = PackedDataset.builder(examples, lengths, 2048).pack(false).build();
        System.out.printf("padding efficiency, one example per row of 2048: %.4f%n", padded.efficiency());
        assertThat(fine).isGreaterThanOrEqualTo(0.98);
        assertThat(padded.efficiency()).isLessThan(0.3);
    }

    @Test
    void aWrongLengthIsNamed() {
        int[] lengths = {3, 4, 5};
        int[] wrong = {3, 9, 5};
        PackedDataset rows = PackedDataset.builder(new TokenExamples(lengths), wrong, 16).shuffle(false).build();
        assertThatThrownBy(() -> {
            for (long r = 0; r < rows.size(); r++) {
                rows.get(r);
            }
        }).hasMessageContaining("example 1").hasMessageContaining("9");
        assertThatThrownBy(() -> PackedDataset.builder(new TokenExamples(lengths), new int[] {1}, 16).build())
                .hasMessageContaining("1 lengths");
        assertThatThrownBy(() -> rows.get(rows.size())).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void unshuffledAndUnpackedRowsFollowTheExamples() {
        int[] lengths = {3, 0, 5, 2};
        PackedDataset rows = PackedDataset.builder(new TokenExamples(lengths), lengths, 4).shuffle(false)
                .pack(false).overlong(Overlong.SPLIT).build();
        assertThat(rows.size()).isEqualTo(4);
        assertThat(List.of(rows.segments(0), rows.segments(1), rows.segments(2), rows.segments(3))).containsExactly(
                List.of(new Segment(0, 0, 3)), List.of(new Segment(2, 0, 4)), List.of(new Segment(2, 4, 1)),
                List.of(new Segment(3, 0, 2)));
        assertThat(rows.efficiency()).isEqualTo(10.0 / 16);
        assertThat(Arrays.stream(rows.get(2).labels()).boxed().toList()).containsExactly(-100, -100, -100, -100);
    }
}
