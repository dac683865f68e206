package dev.stoker.vision.augment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.vision.Fixtures;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** AutoAugment and RandAugment: torchvision's magnitude tables to the bit, their draws, every op reachable. */
class PolicyTest {
    private static final byte[] PHOTO = Fixtures.bytes("augment/photo.rgb");

    @Test
    void magnitudesAreTorchvisionsFloat32Tables() {
        int rows = 0;
        for (String[] row : Fixtures.table("augment/policy_magnitudes.txt")) {
            double m = AutoAugment.magnitude(row[3], Integer.parseInt(row[0]), Integer.parseInt(row[4]),
                    Integer.parseInt(row[1]), Integer.parseInt(row[2]));
            assertThat(m).as(String.join(" ", row)).isEqualTo(Double.parseDouble(row[5]));
            rows++;
        }
        assertThat(rows).isEqualTo(2 * (10 * 11 + 31 * 11));   // two sizes; eleven ops with tables
    }

    @Test
    void randAugmentAppliesNumOpsOpsAtItsBin() {
        RandAugment ra = new RandAugment(2, 9);
        Set<PolicyOp> seen = new HashSet<>();
        for (long sample = 0; sample < 300; sample++) {
            Tile tile = Tile.of(32, 24, PHOTO);
            ra.apply(tile, SampleRandom.of(4, 0, sample));
            SampleRandom r = SampleRandom.of(4, 0, sample);
            Tile expected = Tile.of(32, 24, PHOTO);
            for (int k = 0; k < 2; k++) {
                PolicyOp op = PolicyOp.values()[(int) r.below(14)];
                double m = op.hasMagnitudes() ? op.standardMagnitude(31, 9, 32, 24) : 0;
                if (op.signed && r.below(2) == 1) {
                    m = -m;
                }
                op.apply(expected, m);
                seen.add(op);
            }
            assertThat(tile.toArray()).isEqualTo(expected.toArray());
        }
        assertThat(seen).hasSize(14).doesNotContain(PolicyOp.INVERT);
    }

    @Test
    void autoAugmentRunsEachSubPolicysOpsWithTheirProbabilities() {
        AutoAugment aa = new AutoAugment();
        int changed = 0;
        for (long sample = 0; sample < 300; sample++) {
            Tile tile = Tile.of(32, 24, PHOTO);
            aa.apply(tile, SampleRandom.of(5, 0, sample));
            Tile again = Tile.of(32, 24, PHOTO);
            aa.apply(again, SampleRandom.of(5, 0, sample));
            assertThat(tile.toArray()).isEqualTo(again.toArray());
            changed += java.util.Arrays.equals(tile.toArray(), PHOTO) ? 0 : 1;
        }
        // Every sub-policy has an op with probability >= 0.6 that changes this picture (policy 12's first is 0.0).
        assertThat(changed).isBetween(200, 300);
    }
}
