package dev.stoker.vision.augment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stoker.vision.Fixtures;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** TrivialAugmentWide: torchvision's magnitude tables to the bit, and every op reachable. */
class TrivialAugmentWideTest {

    @Test
    void magnitudesAreTorchvisionsFloat32Tables() {
        int rows = 0;
        for (String[] row : Fixtures.table("augment/taw_magnitudes.txt")) {
            TrivialAugmentWide taw = new TrivialAugmentWide(Integer.parseInt(row[0]));
            int op = TrivialAugmentWide.OPS.indexOf(row[1]);
            assertThat(op).as(row[1]).isPositive();
            assertThat(taw.magnitude(op, Integer.parseInt(row[2]))).as(String.join(" ", row))
                    .isEqualTo(Double.parseDouble(row[3]));
            rows++;
        }
        assertThat(rows).isEqualTo(11 * 31 + 11 * 8);
    }

    @Test
    void everyOpIsDrawnAndChangesTheImageAsItsFunctionalFormDoes() {
        byte[] photo = Fixtures.bytes("augment/photo.rgb");
        Set<String> seen = new HashSet<>();
        TrivialAugmentWide taw = new TrivialAugmentWide();
        for (long sample = 0; sample < 400; sample++) {
            Tile tile = Tile.of(32, 24, photo);
            taw.apply(tile, SampleRandom.of(3, 1, sample));
            // Replay the draws by hand: the op, then the bin and the sign where the op has them.
            SampleRandom r = SampleRandom.of(3, 1, sample);
            int op = (int) r.below(14);
            double m = 0;
            if (op >= 1 && op <= 11) {
                m = taw.magnitude(op, (int) r.below(31));
                if (op <= 9 && r.below(2) == 1) {
                    m = -m;
                }
            }
            Tile expected = Tile.of(32, 24, photo);
            TrivialAugmentWide.applyOp(expected, op, m);
            assertThat(tile.toArray()).isEqualTo(expected.toArray());
            seen.add(TrivialAugmentWide.OPS.get(op));
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(TrivialAugmentWide.OPS);
    }
}
