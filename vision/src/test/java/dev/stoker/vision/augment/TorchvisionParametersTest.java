package dev.stoker.vision.augment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stoker.vision.Fixtures;
import dev.stoker.vision.transform.SampleRandom;
import dev.stoker.vision.transform.Tile;
import org.junit.jupiter.api.Test;

/**
 * What a user coming from torchvision 0.14 passes: the same meaning, or a refusal that says what
 * differs.
 */
class TorchvisionParametersTest {

    @Test
    void randomAffineTakesTorchvisionsDegreesAndShearForms() {
        // degrees=10 and degrees=(-5, 20); shear=8 is the x shear in [-8, 8]
        assertThat(RandomAffine.of(10)).isEqualTo(RandomAffine.of(-10, 10));
        assertThat(RandomAffine.of(-5, 20).degreesMax()).isEqualTo(20);
        RandomAffine sheared = RandomAffine.of(0).shear(8);
        assertThat(new double[] {sheared.shearXMin(), sheared.shearXMax(), sheared.shearYMin(), sheared.shearYMax()})
                .containsExactly(-8, 8, 0, 0);
        assertThat(RandomAffine.of(0).fill(Fill.of(7)).translate(0.1, 0.1).shear(3).fill()).isEqualTo(Fill.of(7));
        // torchvision: "If degrees is a single number, it must be positive."
        assertThatThrownBy(() -> RandomAffine.of(-10)).hasMessageContaining("non-negative")
                .hasMessageContaining("(min, max)");
        assertThatThrownBy(() -> RandomAffine.of(0).shear(-3)).hasMessageContaining("shear");
        assertThatThrownBy(() -> RandomAffine.of(0).scale(0, 1)).hasMessageContaining("positive scale");
        assertThatThrownBy(() -> RandomAffine.of(0).translate(1.5, 0)).hasMessageContaining("[0, 1]");
    }

    @Test
    void randomRotationRefusesANegativeSingleNumber() {
        assertThat(new RandomRotation(15)).isEqualTo(new RandomRotation(-15, 15));
        assertThatThrownBy(() -> new RandomRotation(-15)).hasMessageContaining("non-negative")
                .hasMessageContaining("RandomRotation(min, max)");
    }

    @Test
    void randAugmentWithNoOpsLeavesTheImage() {
        byte[] photo = Fixtures.bytes("augment/photo.rgb");
        Tile tile = Tile.of(32, 24, photo);
        new RandAugment(0, 9).apply(tile, SampleRandom.of(1, 0, 0));
        assertThat(tile.toArray()).isEqualTo(photo);
        assertThatThrownBy(() -> new RandAugment(2, -1)).hasMessageContaining("from the end");
        assertThatThrownBy(() -> new RandAugment(2, 31)).hasMessageContaining("magnitude < bins");
    }
}
